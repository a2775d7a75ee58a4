#include "cuda_rewriter.hpp"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <string>

namespace gpulab::simcc {

namespace {

enum class Kind { identifier, number, literal, punct };

struct Token {
  Kind kind;
  std::size_t begin, end;  // [begin, end) in the source
  int line;
};

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }

class Lexer {
 public:
  explicit Lexer(std::string_view s) : s_(s) {}

  // Comments and whitespace are skipped; literals are single tokens, so nothing inside them is seen.
  std::vector<Token> run(std::vector<RewriteError>& errors) {
    std::vector<Token> out;
    while (i_ < s_.size()) {
      const char c = s_[i_];
      if (c == '\n') {
        ++line_;
        ++i_;
      } else if (std::isspace(static_cast<unsigned char>(c))) {
        ++i_;
      } else if (c == '/' && peek(1) == '/') {
        while (i_ < s_.size() && s_[i_] != '\n') {
          // a backslash-newline continues a // comment
          if (s_[i_] == '\\' && peek(1) == '\n') {
            ++line_;
            ++i_;
          }
          ++i_;
        }
      } else if (c == '/' && peek(1) == '*') {
        const std::size_t close = s_.find("*/", i_ + 2);
        const std::size_t stop = close == std::string_view::npos ? s_.size() : close + 2;
        count_lines(i_, stop);
        i_ = stop;
      } else if (ident_start(c)) {
        const std::size_t b = i_;
        while (i_ < s_.size() && ident_char(s_[i_])) ++i_;
        // An encoding prefix or R makes the identifier part of a literal: u8"..", L'..', R"x(..)x".
        if (i_ < s_.size() && (s_[i_] == '"' || s_[i_] == '\'') && is_literal_prefix(s_.substr(b, i_ - b))) {
          const bool raw = s_[i_ - 1] == 'R';
          if (raw && s_[i_] == '"') {
            raw_string(b, out, errors);
          } else {
            quoted(b, s_[i_], out, errors);
          }
        } else {
          out.push_back({Kind::identifier, b, i_, line_});
        }
      } else if (std::isdigit(static_cast<unsigned char>(c)) || (c == '.' && std::isdigit(static_cast<unsigned char>(peek(1))))) {
        // A pp-number, digit separators (1'000) and exponents (1e+5) included.
        const std::size_t b = i_;
        ++i_;
        while (i_ < s_.size()) {
          const char d = s_[i_];
          if ((d == '+' || d == '-') && (s_[i_ - 1] == 'e' || s_[i_ - 1] == 'E' || s_[i_ - 1] == 'p' || s_[i_ - 1] == 'P')) {
            ++i_;
          } else if (ident_char(d) || d == '.' || (d == '\'' && i_ + 1 < s_.size() && ident_char(s_[i_ + 1]))) {
            ++i_;
          } else {
            break;
          }
        }
        out.push_back({Kind::number, b, i_, line_});
      } else if (c == '"' || c == '\'') {
        quoted(i_, c, out, errors);
      } else if (c == ':' && peek(1) == ':') {
        out.push_back({Kind::punct, i_, i_ + 2, line_});
        i_ += 2;
      } else if (c == '-' && peek(1) == '>') {
        out.push_back({Kind::punct, i_, i_ + 2, line_});
        i_ += 2;
      } else {
        out.push_back({Kind::punct, i_, i_ + 1, line_});
        ++i_;
      }
    }
    return out;
  }

 private:
  char peek(std::size_t k) const { return i_ + k < s_.size() ? s_[i_ + k] : '\0'; }
  void count_lines(std::size_t b, std::size_t e) {
    for (std::size_t k = b; k < e; ++k) line_ += s_[k] == '\n';
  }
  static bool is_literal_prefix(std::string_view p) {
    return p == "L" || p == "u" || p == "U" || p == "u8" || p == "R" || p == "LR" || p == "uR" || p == "UR" ||
           p == "u8R";
  }
  void quoted(std::size_t b, char quote, std::vector<Token>& out, std::vector<RewriteError>& errors) {
    const int start_line = line_;
    std::size_t k = i_ + 1;
    while (k < s_.size() && s_[k] != quote) {
      if (s_[k] == '\\' && k + 1 < s_.size()) {
        if (s_[k + 1] == '\n') ++line_;
        ++k;
      } else if (s_[k] == '\n') {
        errors.push_back({start_line, "unterminated literal"});
        break;
      }
      ++k;
    }
    i_ = k < s_.size() ? k + 1 : s_.size();
    out.push_back({Kind::literal, b, i_, start_line});
  }
  void raw_string(std::size_t b, std::vector<Token>& out, std::vector<RewriteError>& errors) {
    const int start_line = line_;
    const std::size_t open = s_.find('(', i_);
    if (open == std::string_view::npos) {
      errors.push_back({start_line, "malformed raw string literal"});
      i_ = s_.size();
      return;
    }
    std::string close(1, ')');  // built by appending: g++ 12 warns falsely (-Wrestrict) on operator+ here
    close.append(s_.substr(i_ + 1, open - i_ - 1));
    close.push_back('"');
    const std::size_t end = s_.find(close, open);
    const std::size_t stop = end == std::string_view::npos ? s_.size() : end + close.size();
    count_lines(i_, stop);
    i_ = stop;
    out.push_back({Kind::literal, b, i_, start_line});
  }

  std::string_view s_;
  std::size_t i_ = 0;
  int line_ = 1;
};

std::string line_directive_path(std::string_view path);

struct Edit {
  std::size_t begin, end;
  std::string text;
};

class Rewriter {
 public:
  Rewriter(std::string_view s, std::vector<Token> t, RewriteResult& r, std::string line_path, const IncludeMapper& includes)
      : s_(s), t_(std::move(t)), r_(r), line_path_(std::move(line_path)), includes_(includes) {}

  std::vector<Edit> run() {
    for (std::size_t i = 0; i < t_.size(); ++i) {
      if (punct(i, '{')) {
        scopes_.push_back(opens_namespace(i));
      } else if (punct(i, '}')) {
        if (!scopes_.empty()) scopes_.pop_back();
      } else if (includes_ && punct(i, '#') && (i == 0 || t_[i - 1].line != t_[i].line) && ident(i + 1, "include") &&
                 i + 2 < t_.size() && t_[i + 2].kind == Kind::literal && text(i + 2).starts_with('"')) {
        include(i + 2);
        i += 2;
      } else if (is_triple(i, '<')) {
        launch(i);
      } else if (ident(i, "extern") && declares_shared(i)) {
        i = extern_shared(i);
      } else if (ident(i, "__noinline__") && !(i > 0 && punct(i - 1, '('))) {
        edits_.push_back({t_[i].begin, t_[i].end, "__attribute__((noinline))"});
      }
    }
    return std::move(edits_);
  }

 private:
  bool punct(std::size_t i, char c) const {
    return i < t_.size() && t_[i].kind == Kind::punct && t_[i].end - t_[i].begin == 1 && s_[t_[i].begin] == c;
  }
  bool punct2(std::size_t i, std::string_view p) const {
    return i < t_.size() && t_[i].kind == Kind::punct && text(i) == p;
  }
  bool ident(std::size_t i, std::string_view name) const {
    return i < t_.size() && t_[i].kind == Kind::identifier && text(i) == name;
  }
  std::string_view text(std::size_t i) const { return s_.substr(t_[i].begin, t_[i].end - t_[i].begin); }
  // Three one-character tokens c c c. nvcc's lexer accepts <<< and >>> written with spaces or split
  // across lines (`k << < g, b >> > (...)`), and three `<` in a row are never valid C++ otherwise.
  bool is_triple(std::size_t i, char c) const { return punct(i, c) && punct(i + 1, c) && punct(i + 2, c); }
  // The newlines in the source between tokens a and b (inclusive), so a replacement keeps the lines.
  std::string newlines_between(std::size_t a, std::size_t b) const {
    std::string out;
    for (std::size_t m = t_[a].begin; m < t_[b].end; ++m) {
      if (s_[m] == '\n') out += '\n';
    }
    return out;
  }
  // Whether the `{` at i opens a namespace or a linkage block (extern "C"), not a function or class.
  bool opens_namespace(std::size_t i) const {
    std::size_t k = i;
    if (k > 0 && t_[k - 1].kind == Kind::literal && k >= 2 && ident(k - 2, "extern")) return true;
    while (k > 0 && (t_[k - 1].kind == Kind::identifier || punct2(k - 1, "::"))) {
      --k;
      if (ident(k, "namespace")) return true;
    }
    return false;
  }
  bool in_function() const {
    for (bool ns : scopes_) {
      if (!ns) return true;
    }
    return false;
  }

  void error(std::size_t i, std::string message) { r_.errors.push_back({t_[i].line, std::move(message)}); }

  // Index of the token that opens the bracket closed at `i` (scanning back), or npos.
  std::size_t match_back(std::size_t i, char open, char close) const {
    int depth = 0;
    for (std::size_t k = i + 1; k-- > 0;) {
      if (punct(k, close)) ++depth;
      if (punct(k, open) && --depth == 0) return k;
      if (open == '<' && (punct(k, ';') || punct(k, '{') || punct(k, '}'))) break;
    }
    return std::string::npos;
  }

  // The first token of the kernel expression that ends at `last`: a name, qualified, with template
  // arguments, subscripts or a parenthesised expression such as (*fp).
  std::size_t callee_start(std::size_t last) const {
    std::size_t k = last;
    for (;;) {
      std::size_t start;
      if (punct(k, '>')) {
        const std::size_t open = match_back(k, '<', '>');
        if (open == std::string::npos || open == 0 || t_[open - 1].kind != Kind::identifier) return std::string::npos;
        start = open - 1;
      } else if (punct(k, ')')) {
        start = match_back(k, '(', ')');
        if (start == std::string::npos) return start;
        if (start > 0 && t_[start - 1].kind == Kind::identifier) --start;
      } else if (punct(k, ']')) {
        const std::size_t open = match_back(k, '[', ']');
        if (open == std::string::npos || open == 0) return std::string::npos;
        k = open - 1;
        continue;
      } else if (t_[k].kind == Kind::identifier) {
        start = k;
      } else {
        return std::string::npos;
      }
      if (start > 0 && (punct2(start - 1, "::") || punct(start - 1, '.') || punct2(start - 1, "->"))) {
        if (start >= 2 && (t_[start - 2].kind == Kind::identifier || punct(start - 2, '>') || punct(start - 2, ')'))) {
          k = start - 2;
          continue;
        }
        return start - 1;  // a leading ::
      }
      return start;
    }
  }

  static std::string c_string(std::string_view text) {
    std::string out = "\"";
    bool space = false;
    for (char c : text) {
      if (std::isspace(static_cast<unsigned char>(c))) {
        space = true;
        continue;
      }
      if (space && out.size() > 1) out += ' ';
      space = false;
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    return out + "\"";
  }

  void launch(std::size_t i) {
    if (i == 0) {
      error(i, "<<< with no kernel before it");
      return;
    }
    const std::size_t first = callee_start(i - 1);
    std::string name = first == std::string::npos ? std::string("kernel")
                                                   : std::string(s_.substr(t_[first].begin, t_[i - 1].end - t_[first].begin));
    // The configuration ends at the first run of three or more `>` outside brackets; a longer run is
    // a template argument list's `>>` followed by the closing >>> (`<<<g, b, 0, s<T<int>>>>>(`), so the
    // configuration's own >>> is the last three.
    int depth = 0;
    std::size_t close = std::string::npos;
    for (std::size_t k = i + 3; k < t_.size(); ++k) {
      if (punct(k, '(') || punct(k, '[') || punct(k, '{')) ++depth;
      if (punct(k, ')') || punct(k, ']') || punct(k, '}')) --depth;
      if (depth < 0 || punct(k, ';')) break;
      if (depth == 0 && is_triple(k, '>')) {
        std::size_t run_end = k + 3;
        while (punct(run_end, '>')) ++run_end;
        close = run_end - 3;
        break;
      }
    }
    if (close == std::string::npos) {
      error(i, "a <<< launch configuration without its closing >>>");
      return;
    }
    if (close == i + 3) {
      error(i, "an empty <<<>>> launch configuration (grid and block are required)");
      return;
    }
    if (!punct(close + 3, '(')) {
      error(close, "a <<<...>>> launch must be followed by the kernel's argument list");
      return;
    }
    if (first == std::string::npos) {
      error(i - 1, "gpulab-simcc cannot tell which expression before <<< is the kernel: name it, or put it in parentheses");
      return;
    }
    // The kernel expression goes into GPULAB_SIM_KERNEL_OF (cuda_runtime.h), which picks the function
    // the launch's arguments select, as a call would: overloads, deduced template arguments, pointers.
    edits_.push_back({t_[first].begin, t_[first].begin, "GPULAB_SIM_KERNEL_OF("});
    edits_.push_back({t_[i].begin, t_[i + 2].end,
                      ") ->* ::gpulab::sim::cuda::launch_with({" + c_string(name) + ", __FILE__}, " +
                          newlines_between(i, i + 2)});
    edits_.push_back({t_[close].begin, t_[close + 2].end, ")" + newlines_between(close, close + 2)});
    ++r_.launches;
  }

  // #include "name": a user file may hold launches too, so it is included as its rewritten copy.
  void include(std::size_t literal) {
    const std::string_view spelled = text(literal).substr(1, text(literal).size() - 2);
    const std::string copy = includes_(spelled);
    if (!copy.empty()) edits_.push_back({t_[literal].begin, t_[literal].end, "\"" + line_directive_path(copy) + "\""});
  }

  // Whether the declaration that starts with `extern` at i is of shared memory: `__shared__` among
  // its specifiers, wherever it stands (`extern __shared__ float s[]`, `extern float __shared__ s[]`,
  // `extern volatile __shared__ int s[]`), before any parenthesis that is not an attribute's.
  bool declares_shared(std::size_t i) const {
    for (std::size_t k = i + 1; k < t_.size() && !punct(k, ';') && !punct(k, '{') && !punct(k, '='); ++k) {
      if (ident(k, "__shared__")) return true;
      if (ident(k, "__align__") || ident(k, "alignas") || ident(k, "__attribute__")) {
        k = closing_paren(k + 1);
      } else if (punct(k, '(') || t_[k].kind == Kind::literal) {
        return false;  // a function declaration, or extern "C"
      }
    }
    return false;
  }
  // The index of the ')' closing the '(' at open (or open itself when there is none).
  std::size_t closing_paren(std::size_t open) const {
    if (open >= t_.size() || !punct(open, '(')) return open;
    int depth = 0;
    for (std::size_t m = open; m < t_.size(); ++m) {
      if (punct(m, '(')) ++depth;
      if (punct(m, ')') && --depth == 0) return m;
    }
    return t_.size() - 1;
  }

  // extern [__shared__ | __align__(n) | alignas(n) | __attribute__((...)) | qualifiers] T name[];
  std::size_t extern_shared(std::size_t i) {
    std::size_t semi = i + 1;
    while (semi < t_.size() && !punct(semi, ';')) ++semi;
    if (semi >= t_.size()) {
      error(i, "extern __shared__ declaration without its ';'");
      return i + 1;
    }
    // T name [ ] ;
    if (semi < i + 5 || !punct(semi - 1, ']') || !punct(semi - 2, '[') || t_[semi - 3].kind != Kind::identifier) {
      error(i, "gpulab-simcc rewrites `extern __shared__ T name[];` only (one unsized array per declaration)");
      return semi;
    }
    // The element type: the specifiers but __shared__ and the attributes that only align (the
    // simulator's dynamic shared memory is 16-byte aligned).
    std::string type;
    for (std::size_t k = i + 1; k < semi - 3; ++k) {
      if (ident(k, "__shared__")) continue;
      if (ident(k, "__align__") || ident(k, "alignas") || ident(k, "__attribute__")) {
        k = closing_paren(k + 1);
        continue;
      }
      if (punct(k, ',') || punct(k, '[') || punct(k, '=')) {
        error(i, "gpulab-simcc rewrites `extern __shared__ T name[];` only (one unsized array per declaration)");
        return semi;
      }
      if (!type.empty()) type += ' ';
      type += std::string(text(k));
    }
    if (type.empty()) {
      error(i, "gpulab-simcc rewrites `extern __shared__ T name[];` only (one unsized array per declaration)");
      return semi;
    }
    const std::string name(text(semi - 3));
    const std::string array = "(*reinterpret_cast<" + type + "(*)[]>(::gpulab::sim::dynamic_shared_memory()))";
    std::string replacement;
    if (in_function()) {
      // A reference bound each time the function runs, so per block: the array is an lvalue of T[],
      // as under nvcc (reinterpret_cast, &name[i] and decay all work).
      replacement = type + " (&" + name + ")[] = " + array + ";";
      for (std::size_t m = t_[i].begin; m < t_[semi].end; ++m) {
        if (s_[m] == '\n') replacement += '\n';  // keep the lines where they were
      }
    } else {
      // At namespace scope nothing is evaluated per block, so the name becomes a macro for the
      // expression; #line puts the rest of the line back at its own number.
      replacement = "\n#define " + name + " " + array + "\n#line " + std::to_string(t_[semi].line) + " \"" +
                    line_path_ + "\"\n";
    }
    edits_.push_back({t_[i].begin, t_[semi].end, replacement});
    return semi;
  }

  std::string_view s_;
  std::vector<Token> t_;
  RewriteResult& r_;
  std::vector<Edit> edits_;
  std::string line_path_;
  std::vector<bool> scopes_;  // open braces: true for a namespace or extern "C" block
  const IncludeMapper& includes_;
};

std::string line_directive_path(std::string_view path) {
  std::string out;
  for (char c : path) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

}  // namespace

RewriteResult rewrite_cuda_source(std::string_view source, std::string_view path, const IncludeMapper& includes) {
  RewriteResult result;
  std::vector<Token> tokens = Lexer(source).run(result.errors);
  std::vector<Edit> edits = Rewriter(source, std::move(tokens), result, line_directive_path(path), includes).run();
  // nvcc includes cuda_runtime.h before the program; so does the rewritten file.
  result.text = "#include <cuda_runtime.h>\n#line 1 \"" + line_directive_path(path) + "\"\n";
  std::stable_sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) { return a.begin < b.begin; });
  std::size_t at = 0;
  for (const Edit& e : edits) {
    result.text.append(source.substr(at, e.begin - at));
    result.text += e.text;
    at = e.end;
  }
  result.text.append(source.substr(at));
  return result;
}

}  // namespace gpulab::simcc
