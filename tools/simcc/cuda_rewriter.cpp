#include "cuda_rewriter.hpp"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <string>

#include "sim/ptx/ptx_statement_check.hpp"

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
    mark_directives();
    for (std::size_t i = 0; i < t_.size(); ++i) {
      if (punct(i, '{')) {
        if (!in_function() && !in_directive_[i]) kernel_definition(i);
        scopes_.push_back(opens_namespace(i));
        const Code parent = code_.empty() ? Code::host : code_.back();
        code_.push_back(parent != Code::host ? parent : code_of_head(i));
      } else if (punct(i, '}')) {
        if (!scopes_.empty()) scopes_.pop_back();
        if (!code_.empty()) code_.pop_back();
      } else if (is_asm_keyword(i)) {
        i = inline_asm(i);
      } else if (includes_ && punct(i, '#') && (i == 0 || t_[i - 1].line != t_[i].line) && ident(i + 1, "include") &&
                 i + 2 < t_.size() && t_[i + 2].kind == Kind::literal && text(i + 2).starts_with('"')) {
        include(i + 2);
        i += 2;
      } else if (is_triple(i, '<')) {
        launch(i);
      } else if (ident(i, "extern") && declares_shared(i)) {
        i = extern_shared(i);
      } else if (memory_space(i) && ident(i + 1, "alignas") && punct(i + 2, '(')) {
        alignas_first(i);
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

  // ---- kernels defined in the file ----

  // A non-template __global__ function defined at namespace scope, the `{` of its body at i: after
  // the body comes GPULAB_SIM_KERNEL_DEFINED(name, (parameters)) (cuda_runtime.h), which tells the
  // simulator the kernel's parameter types before main runs, so that the calls that name a kernel by
  // its address alone (cudaLaunchKernel, cudaLaunchCooperativeKernel, cudaGraphAddKernelNode with a
  // `(void*)kernel`) find it. Nothing is added on a new line, so line numbers stay.
  void kernel_definition(std::size_t open) {
    // The parameter list: the last (...) before the `{` whose `(` follows a name (not an attribute's).
    std::size_t close = open;
    std::size_t params_open = std::string::npos;
    while (close-- > 0) {
      if (punct(close, ';') || punct(close, '}') || punct(close, '{')) return;
      if (!punct(close, ')')) continue;
      const std::size_t o = match_back(close, '(', ')');
      if (o == std::string::npos || o == 0) return;
      if (t_[o - 1].kind == Kind::identifier && !is_attribute_word(text(o - 1))) {
        params_open = o;
        break;
      }
      close = o;
    }
    if (params_open == std::string::npos) return;
    const std::size_t name = params_open - 1;
    bool global = false;
    for (std::size_t k = name; k-- > 0;) {
      if (punct(k, ';') || punct(k, '}') || punct(k, '{') || in_directive_[k]) break;
      if (ident(k, "template") || punct2(k, "::") || ident(k, "operator")) return;  // templates, members
      if (ident(k, "__global__")) global = true;
    }
    if (!global || punct2(name - 1, "::")) return;
    // The parameters' types for a function pointer type: the tokens without default arguments.
    std::string types = "(";
    int depth = 0;
    bool in_default = false;
    for (std::size_t k = params_open + 1; k < close; ++k) {
      if (punct(k, '(') || punct(k, '[') || punct(k, '{') || punct(k, '<')) ++depth;
      if (punct(k, ')') || punct(k, ']') || punct(k, '}') || punct(k, '>')) --depth;
      if (depth == 0 && punct(k, '=')) in_default = true;
      if (depth == 0 && punct(k, ',')) in_default = false;
      if (in_default) continue;
      if (types.size() > 1) types += ' ';
      types += text(k);
    }
    types += ')';
    const std::size_t body_end = closing_bracket(open);
    if (body_end == std::string::npos) return;
    edits_.push_back({t_[body_end].end, t_[body_end].end,
                      " GPULAB_SIM_KERNEL_DEFINED(" + std::string(text(name)) + ", " + types + ")"});
    ++r_.kernels_defined;
  }

  static bool is_attribute_word(std::string_view w) {
    return w == "__launch_bounds__" || w == "__attribute__" || w == "alignas" || w == "__declspec" ||
           w == "__align__" || w == "__cluster_dims__" || w == "__maxnreg__" || w == "decltype";
  }

  // ---- memory-space qualifiers before alignas ----

  bool memory_space(std::size_t i) const {
    return ident(i, "__shared__") || ident(i, "__device__") || ident(i, "__constant__") || ident(i, "__managed__");
  }
  // `__shared__ alignas(16) float a[...]`, which nvcc takes: the simulator's __shared__ is a storage
  // class (thread_local), and C++ wants alignas before the decl-specifiers, so alignas(...) moves in
  // front of the qualifier.
  void alignas_first(std::size_t i) {
    const std::size_t close = closing_bracket(i + 2);
    if (close == std::string::npos) return;
    const std::string spec(s_.substr(t_[i + 1].begin, t_[close].end - t_[i + 1].begin));
    if (spec.find('\n') != std::string::npos) return;  // keep the lines: leave a split one alone
    edits_.push_back({t_[i].begin, t_[i].begin, spec + " "});
    edits_.push_back({t_[i + 1].begin, t_[close].end, ""});
  }

  // ---- inline PTX: asm statements in device code ----

  // Which processor a function body's code is for: what its declaration says, as far as the tokens
  // tell (a macro such as `#define DEVICE __device__` hides it; the asm text then decides).
  enum class Code : unsigned char { host, device, host_device };

  // Marks the tokens of preprocessor directives: a `#` first on its line, to the first newline that
  // no backslash continues.
  void mark_directives() {
    in_directive_.assign(t_.size(), false);
    for (std::size_t i = 0; i < t_.size(); ++i) {
      if (!punct(i, '#') || (i > 0 && t_[i - 1].line == t_[i].line)) continue;
      std::size_t end = t_[i].begin;
      while (end < s_.size() && !(s_[end] == '\n' && (end == 0 || s_[end - 1] != '\\'))) ++end;
      for (std::size_t k = i; k < t_.size() && t_[k].begin < end; ++k) {
        in_directive_[k] = true;
        i = k;
      }
    }
  }

  // What the declaration before the `{` at i says about its code: __device__ or __global__ (with or
  // without __host__) for a function or lambda body.
  Code code_of_head(std::size_t i) const {
    bool device = false, host = false;
    int depth = 0;
    for (std::size_t k = i; k-- > 0;) {
      if (in_directive_[k] != in_directive_[i]) break;
      if (punct(k, ')') || punct(k, ']')) ++depth;
      if (punct(k, '(') || punct(k, '[')) {
        if (depth == 0) break;  // the head of a lambda inside a call's arguments ends here
        --depth;
      }
      if (depth == 0 && (punct(k, ';') || punct(k, '{') || punct(k, '}'))) break;
      if (ident(k, "__device__") || ident(k, "__global__")) device = true;
      if (ident(k, "__host__")) host = true;
    }
    return !device ? Code::host : host ? Code::host_device : Code::device;
  }

  bool is_asm_keyword(std::size_t i) const { return ident(i, "asm") || ident(i, "__asm__") || ident(i, "__asm"); }

  // The text of a string literal token, its escapes decoded (enough to read PTX mnemonics).
  std::string literal_text(std::size_t i) const {
    std::string_view v = text(i);
    const std::size_t q = v.find('"');
    if (q == std::string_view::npos) return {};
    if (q > 0 && v[q - 1] == 'R') {  // R"delim(...)delim"
      const std::size_t open = v.find('(', q);
      const std::size_t close = v.rfind(')');
      return open == std::string_view::npos || close == std::string_view::npos || close < open
                 ? std::string()
                 : std::string(v.substr(open + 1, close - open - 1));
    }
    std::string out;
    for (std::size_t k = q + 1; k + 1 < v.size(); ++k) {
      if (v[k] != '\\') {
        out += v[k];
        continue;
      }
      const char e = v[++k];
      switch (e) {
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case '\n': break;
        default:
          if (e >= '0' && e <= '7') {
            int value = 0;
            for (int d = 0; d < 3 && k < v.size() - 1 && v[k] >= '0' && v[k] <= '7'; ++d, ++k) value = value * 8 + (v[k] - '0');
            --k;
            out += static_cast<char>(value);
          } else {
            out += e;
          }
      }
    }
    return out;
  }

  // Whether an asm text is PTX: its first instruction is a PTX mnemonic with its dotted modifiers
  // (x86's and Arm's mnemonics carry no dots, and their directives start with one), a .reg
  // declaration, or one of PTX's few bare instructions.
  static bool looks_like_ptx(std::string_view text) {
    static const char* const bases[] = {
        "abs", "activemask", "add", "addc", "alloca", "and", "applypriority", "atom", "bar", "barrier", "bfe", "bfi",
        "bfind", "bmsk", "bra", "brev", "call", "clz", "cnot", "copysign", "cos", "cp", "createpolicy", "cvt", "cvta",
        "discard", "div", "dp2a", "dp4a", "elect", "ex2", "fence", "fma", "fns", "getctarank", "griddepcontrol",
        "isspacep", "istypep", "ld", "ldmatrix", "ldu", "lg2", "lop3", "mad", "mad24", "madc", "mapa", "match", "max",
        "mbarrier", "membar", "min", "mma", "mov", "movmatrix", "mul", "mul24", "multimem", "nanosleep", "neg", "not",
        "or", "pmevent", "popc", "prefetch", "prefetchu", "prmt", "rcp", "red", "redux", "rem", "rsqrt", "sad", "selp",
        "set", "setmaxnreg", "setp", "shf", "shfl", "shl", "shr", "sin", "slct", "sqrt", "st", "stackrestore",
        "stacksave", "stmatrix", "sub", "subc", "suld", "suq", "sured", "sust", "szext", "tanh", "tcgen05", "tensormap",
        "testp", "tex", "tld4", "txq", "vabsdiff", "vadd", "vmad", "vmax", "vmin", "vote", "vset", "vshl", "vshr",
        "vsub", "wgmma", "wmma", "xor"};
    std::size_t k = 0;
    const auto skip_space = [&] {
      while (k < text.size() && (std::isspace(static_cast<unsigned char>(text[k])) || text[k] == '{' || text[k] == '}' ||
                                 text[k] == ';'))
        ++k;
    };
    const auto word = [&] {
      const std::size_t b = k;
      while (k < text.size() && (std::isalnum(static_cast<unsigned char>(text[k])) || text[k] == '_' || text[k] == '.' ||
                                 text[k] == '$' || text[k] == '%' || (text[k] == ':' && k + 1 < text.size() && text[k + 1] == ':'))) {
        k += text[k] == ':' ? 2 : 1;
      }
      return text.substr(b, k - b);
    };
    for (int statements = 0; statements < 8; ++statements) {
      skip_space();
      if (k >= text.size()) return false;
      if (text[k] == '@') {  // a guard: @p, @!p
        ++k;
        if (k < text.size() && text[k] == '!') ++k;
        word();
        skip_space();
      }
      const std::string_view w = word();
      if (w.empty()) return false;
      if (k < text.size() && text[k] == ':') {  // a label
        ++k;
        continue;
      }
      if (w == ".reg" || w == ".pragma") return true;
      if (w == "trap" || w == "exit" || w == "ret" || w == "brkpt" || w == "pmevent") return true;
      const std::size_t dot = w.find('.');
      if (dot == std::string_view::npos || dot == 0) return false;
      const std::string_view base = w.substr(0, dot);
      for (const char* b : bases) {
        if (base == b) return true;
      }
      return false;
    }
    return false;
  }

  // The index of the token closing the bracket opened at `open`.
  std::size_t closing_bracket(std::size_t open) const {
    int depth = 0;
    for (std::size_t m = open; m < t_.size(); ++m) {
      if (punct(m, '(') || punct(m, '[') || punct(m, '{')) ++depth;
      if ((punct(m, ')') || punct(m, ']') || punct(m, '}')) && --depth == 0) return m;
    }
    return std::string::npos;
  }

  struct AsmOperand {
    std::size_t first = 0;       // its first token ([ of [name], or the constraint)
    std::size_t constraint = 0;  // the constraint literal
    std::string spelled;         // the constraint as written, without spaces
    std::string name;
  };

  // asm [volatile] [inline] [goto] ( template [: outputs [: inputs [: clobbers [: labels]]]] )
  // whose template is PTX, in device code, becomes
  //   ::gpulab::sim::ptx::run(GPULAB_PTX_PROGRAM(template, "operands"), ::gpulab::sim::ptx::out<'r'>(x), ...)
  // (inline_ptx.hpp). Anything else (x86 asm in host code, an asm label, file-scope asm) is left alone.
  // Returns the last token it consumed.
  std::size_t inline_asm(std::size_t i) {
    const bool directive = in_directive_[i];
    // The token before, past the directives between (`#ifdef __CUDA_ARCH__` before the statement).
    std::size_t before = i;
    while (before > 0 && in_directive_[before - 1] != directive) --before;
    if (before > 0 && t_[before - 1].kind == Kind::identifier && !ident(before - 1, "else") && !ident(before - 1, "do"))
      return i;  // an asm label: int x asm("r");
    if (!directive && !in_function()) return i;  // file-scope asm, or an asm label of a declaration
    std::size_t k = i + 1;
    bool is_goto = false;
    while (ident(k, "volatile") || ident(k, "__volatile__") || ident(k, "__volatile") || ident(k, "inline") ||
           ident(k, "__inline__") || ident(k, "__inline") || ident(k, "goto")) {
      is_goto = is_goto || ident(k, "goto");
      ++k;
    }
    if (!punct(k, '(')) return i;
    const std::size_t open = k;
    const std::size_t close = closing_bracket(open);
    if (close == std::string::npos) return i;
    // The top-level colons (a `::` token is two), and the template's tokens.
    std::vector<std::size_t> colons;  // token index of each separator (a `::` appears twice)
    int depth = 0;
    for (std::size_t m = open + 1; m < close; ++m) {
      if (punct(m, '(') || punct(m, '[') || punct(m, '{')) ++depth;
      if (punct(m, ')') || punct(m, ']') || punct(m, '}')) --depth;
      if (depth != 0) continue;
      if (punct(m, ':')) colons.push_back(m);
      if (punct2(m, "::")) {
        colons.push_back(m);
        colons.push_back(m);
      }
    }
    const std::size_t template_end = colons.empty() ? close : colons.front();  // one past the template
    if (template_end == open + 1) return i;
    std::string asm_text;
    bool known = true;
    for (std::size_t m = open + 1; m < template_end; ++m) {
      if (t_[m].kind == Kind::literal && text(m).find('"') != std::string_view::npos) {
        asm_text += literal_text(m);
      } else {
        known = false;  // a macro: the compiler will expand and concatenate it
      }
    }
    const Code code = directive ? Code::host : (code_.empty() ? Code::host : code_.back());
    const bool empty = known && asm_text.find_first_not_of(" \t\n") == std::string::npos;
    if (empty) return close;  // asm("" ::: "memory"): a compiler barrier the host compiler builds as it is
    const bool ptx = known ? looks_like_ptx(asm_text) : code == Code::device;
    if (!ptx && !(code == Code::device && known)) return close;
    if (is_goto) {
      error(i, "asm goto in device code is not supported (nvcc has no asm goto either)");
      return close;
    }
    // The sections after the template, [begin, end) token ranges; the first colon of a `::` token
    // opens an empty one.
    std::vector<std::pair<std::size_t, std::size_t>> sections;
    for (std::size_t c = 0; c < colons.size(); ++c) {
      if (c + 1 < colons.size() && colons[c + 1] == colons[c]) {
        sections.emplace_back(colons[c] + 1, colons[c] + 1);
      } else {
        sections.emplace_back(colons[c] + 1, c + 1 < colons.size() ? colons[c + 1] : close);
      }
    }
    if (sections.size() > 3) {
      error(i, "asm statement with goto labels in device code is not supported");
      return close;
    }
    std::vector<AsmOperand> operands;
    std::vector<std::size_t> output_count(1, 0);
    std::vector<std::string> wrappers;
    bool ok = true;
    for (std::size_t sec = 0; sec < std::min<std::size_t>(sections.size(), 2) && ok; ++sec) {
      const auto [b, e] = sections[sec];
      std::size_t m = b;
      while (m < e && ok) {
        AsmOperand op;
        op.first = m;
        if (punct(m, '[')) {
          if (!(m + 2 < e && t_[m + 1].kind == Kind::identifier && punct(m + 2, ']'))) {
            ok = false;
            break;
          }
          op.name = std::string(text(m + 1));
          m += 3;
        }
        if (m >= e || t_[m].kind != Kind::literal) {
          error(m < t_.size() ? m : i, "an asm operand without its constraint string");
          ok = false;
          break;
        }
        op.constraint = m;
        for (char ch : literal_text(m)) {
          if (!std::isspace(static_cast<unsigned char>(ch))) op.spelled += ch;
        }
        ++m;
        if (!punct(m, '(')) {
          error(m < t_.size() ? m : i, "an asm operand without its (expression)");
          ok = false;
          break;
        }
        m = closing_bracket(m) + 1;
        // The wrapper for this operand.
        const bool output = sec == 0;
        char letter = 0;
        bool inout = false, tied = false;
        for (char ch : op.spelled) {
          if (ch == '=' || ch == '&') continue;
          if (ch == '+') {
            inout = true;
            continue;
          }
          if (std::isdigit(static_cast<unsigned char>(ch)) && !output) {
            const auto n = static_cast<std::size_t>(ch - '0');
            if (n >= operands.size() || n >= output_count[0]) {
              error(op.constraint, "constraint \"" + op.spelled + "\" ties an input to an operand that is not an output");
              ok = false;
              break;
            }
            for (char oc : operands[n].spelled) {
              if (std::isalpha(static_cast<unsigned char>(oc))) letter = oc;
            }
            tied = true;
            continue;
          }
          letter = ch;
        }
        if (!ok) break;
        if (std::string_view("hrlfdncb").find(letter) == std::string_view::npos || letter == 0) {
          error(op.constraint, "constraint \"" + op.spelled +
                                   "\" is not supported for inline PTX (h, r, l, f, d, n, c and b are; memory operands are not)");
          ok = false;
          break;
        }
        if (output && !inout && op.spelled.find('=') == std::string::npos) {
          error(op.constraint, "output constraint \"" + op.spelled + "\" needs = or +");
          ok = false;
          break;
        }
        if (!output && (inout || op.spelled.find('=') != std::string::npos)) {
          error(op.constraint, "input constraint \"" + op.spelled + "\" cannot be an output");
          ok = false;
          break;
        }
        (void)tied;
        wrappers.push_back(std::string("::gpulab::sim::ptx::") + (output ? (inout ? "inout" : "out") : "in") + "<'" + letter + "'>");
        operands.push_back(op);
        if (output) ++output_count[0];
        if (m < e && punct(m, ',')) ++m;
      }
    }
    if (!ok) return close;
    // The operands' description for the parser: "=r,+l[name],r,0".
    std::string described;
    for (std::size_t n = 0; n < operands.size(); ++n) {
      if (n > 0) described += ',';
      described += operands[n].spelled;
      if (!operands[n].name.empty()) described += "[" + operands[n].name + "]";
    }
    if (known) {
      // What the simulator would refuse when the statement first runs fails the build instead, but only
      // where the statement is compiled into the program: a call of a function declared with an error
      // attribute, which the host compiler reports at the statement only if it emits the call (not in a
      // template never instantiated, an inline function never used, or a branch #if'd out).
      const std::string why =
          gpulab::sim::ptx::statement_refusal(asm_text.c_str(), colons.empty() ? nullptr : described.c_str());
      if (!why.empty()) {
        const std::string name = "gpulab_ptx_refused_" + std::to_string(t_[i].line) + "_" + std::to_string(r_.inline_asm);
        std::string breaks = newlines_between(i, close);
        if (directive) {  // inside a macro's body the lines go on with a backslash
          std::string continued;
          for (char ch : breaks) continued += ch == '\n' ? std::string("\\\n") : std::string(1, ch);
          breaks = continued;
        }
        edits_.push_back({t_[i].begin, t_[close].end,
                          "[] { [[gnu::error(" + c_string("inline PTX the simulator does not run: " + why) + ")]] void " +
                              name + "(); " + name + "(); }()" + breaks});
        ++r_.inline_asm;
        return close;
      }
    }
    edits_.push_back({t_[i].begin, t_[open].end, "::gpulab::sim::ptx::run(GPULAB_PTX_PROGRAM(" + newlines_between(i, open)});
    edits_.push_back({t_[template_end - 1].end, t_[template_end - 1].end,
                      colons.empty() ? std::string(", nullptr)") : ", " + c_string(described) + ")"});
    // Each separator: a comma before a section with operands, nothing otherwise.
    for (std::size_t c = 0; c < colons.size(); ++c) {
      if (c + 1 < colons.size() && colons[c + 1] == colons[c]) continue;  // the first half of a `::`
      const auto sep = [&](std::size_t section) {
        return section < 2 && section < sections.size() && sections[section].first < sections[section].second ? std::string(",")
                                                                                                              : std::string();
      };
      std::string replacement = sep(c);
      if (c > 0 && colons[c - 1] == colons[c]) replacement = sep(c - 1) + replacement;
      edits_.push_back({t_[colons[c]].begin, t_[colons[c]].end, replacement});
    }
    for (std::size_t n = 0; n < operands.size(); ++n) {
      const AsmOperand& op = operands[n];
      edits_.push_back({t_[op.first].begin, t_[op.constraint].end, wrappers[n] + newlines_between(op.first, op.constraint)});
    }
    if (sections.size() == 3 && sections[2].first < sections[2].second) {  // clobbers: a fence stands for "memory"
      edits_.push_back({t_[sections[2].first].begin, t_[sections[2].second - 1].end,
                        newlines_between(sections[2].first, sections[2].second - 1)});
    }
    ++r_.inline_asm;
    return close;
  }

  std::string_view s_;
  std::vector<Token> t_;
  RewriteResult& r_;
  std::vector<Edit> edits_;
  std::string line_path_;
  std::vector<bool> scopes_;  // open braces: true for a namespace or extern "C" block
  std::vector<Code> code_;    // open braces: whose code they hold (a function's, and the blocks in it)
  std::vector<bool> in_directive_;  // per token: part of a preprocessor directive (a #define body)
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
  // nvcc includes cuda_runtime.h before the program; so does the rewritten file. Then __CUDA_ARCH__ is
  // the sim device's, 900: the one compilation of a .cu file here is its device pass as much as its
  // host pass, and device code written `#if __CUDA_ARCH__ >= 700 ... #endif` must be there (host-only
  // code in `#ifndef __CUDA_ARCH__` is not; docs/simulator.md says so).
  result.text = "#include <cuda_runtime.h>\n#define __CUDA_ARCH__ 900\n#line 1 \"" + line_directive_path(path) + "\"\n";
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
