// The PTX layer's parser: the text of one inline asm statement, with its operands' constraints, into a
// Program (ptx_program.hpp), once per statement. Everything it cannot run is refused here, naming the
// instruction and the statement's file and line, so a kernel learns of it at the statement's first run
// rather than from a wrong result.
//
// The text is PTX as nvcc passes it to ptxas after substituting the operands: in an extended asm
// statement (one with colons) `%%` is a `%`, `%0`..`%N` and `%[name]` are the operands and `%=` is a
// number unique to the statement (0 here: each program has labels of its own).
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "sim/ptx/ptx_program.hpp"
#include "sim/ptx/ptx_statement_check.hpp"

namespace gpulab::sim::ptx {

namespace {

// ---- lexing ----------------------------------------------------------------------------------------------------

enum class Tok : std::uint8_t { end, word, number, operand, punct, string };

struct Token {
  Tok kind = Tok::end;
  std::string text;  // word, number, string; punct: the character
  unsigned operand = 0;
  std::size_t begin = 0;  // offset in the statement's text
  int line = 1;           // line within the asm text
};

struct Refusal {
  std::string message;
};

bool word_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.' || c == '%';
}
bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.'; }

class Lexer {
 public:
  Lexer(std::string_view text, bool extended, const std::map<std::string, unsigned>& names)
      : s_(text), extended_(extended), names_(names) {}

  std::vector<Token> run() {
    std::vector<Token> out;
    while (i_ < s_.size()) {
      const char c = s_[i_];
      if (c == '\n') {
        ++line_;
        ++i_;
      } else if (std::isspace(static_cast<unsigned char>(c))) {
        ++i_;
      } else if (c == '/' && peek(1) == '/') {
        while (i_ < s_.size() && s_[i_] != '\n') ++i_;
      } else if (c == '/' && peek(1) == '*') {
        const std::size_t close = s_.find("*/", i_ + 2);
        const std::size_t stop = close == std::string_view::npos ? s_.size() : close + 2;
        for (std::size_t k = i_; k < stop; ++k) line_ += s_[k] == '\n';
        i_ = stop;
      } else if (c == '%' && extended_ && std::isdigit(static_cast<unsigned char>(peek(1)))) {
        Token t = start(Tok::operand);
        ++i_;
        unsigned n = 0;
        while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) n = n * 10 + static_cast<unsigned>(s_[i_++] - '0');
        t.operand = n;
        out.push_back(t);
      } else if (c == '%' && extended_ && peek(1) == '[') {
        Token t = start(Tok::operand);
        const std::size_t close = s_.find(']', i_);
        if (close == std::string_view::npos) throw Refusal{"`%[` without its `]`"};
        const std::string name(s_.substr(i_ + 2, close - i_ - 2));
        const auto it = names_.find(name);
        if (it == names_.end()) throw Refusal{fmt::format("no operand is named [{}]", name)};
        t.operand = it->second;
        i_ = close + 1;
        out.push_back(t);
      } else if (c == '%' && extended_ && std::isalpha(static_cast<unsigned char>(peek(1)))) {
        throw Refusal{fmt::format("`%{}`: an operand modifier, or a register written with one `%` (in an asm statement "
                                  "with operands, PTX's registers are written `%%name`)",
                                  peek(1))};
      } else if (word_start(c)) {
        Token t = start(Tok::word);
        if (c == '%') {
          t.text += '%';
          i_ += extended_ && peek(1) == '%' ? 2 : 1;
          if (!extended_ && peek(0) == '%') ++i_;  // `%%` in a basic statement: taken as one `%`
        }
        for (;;) {
          if (i_ < s_.size() && word_char(s_[i_])) {
            t.text += s_[i_++];
          } else if (peek(0) == ':' && peek(1) == ':') {
            t.text += "::";
            i_ += 2;
          } else if (extended_ && peek(0) == '%' && peek(1) == '=') {
            t.text += '0';  // %=: unique to the statement
            i_ += 2;
          } else {
            break;
          }
        }
        out.push_back(t);
      } else if (std::isdigit(static_cast<unsigned char>(c))) {
        Token t = start(Tok::number);
        const bool hex = c == '0' && (peek(1) == 'x' || peek(1) == 'X' || peek(1) == 'f' || peek(1) == 'F' ||
                                      peek(1) == 'd' || peek(1) == 'D');
        while (i_ < s_.size()) {
          const char d = s_[i_];
          if (std::isalnum(static_cast<unsigned char>(d)) || d == '.') {
            t.text += d;
            ++i_;
          } else if (!hex && (d == '+' || d == '-') && (s_[i_ - 1] == 'e' || s_[i_ - 1] == 'E')) {
            t.text += d;
            ++i_;
          } else {
            break;
          }
        }
        out.push_back(t);
      } else if (c == '"') {
        Token t = start(Tok::string);
        const std::size_t close = s_.find('"', i_ + 1);
        if (close == std::string_view::npos) throw Refusal{"a string without its closing quote"};
        t.text = std::string(s_.substr(i_ + 1, close - i_ - 1));
        i_ = close + 1;
        out.push_back(t);
      } else if (std::strchr("{}[](),;+-!@|:<>", c) != nullptr) {
        Token t = start(Tok::punct);
        t.text = std::string(1, c);
        ++i_;
        out.push_back(t);
      } else if (c == '%') {
        throw Refusal{"a `%` that names nothing"};
      } else {
        throw Refusal{fmt::format("unexpected character `{}`", c)};
      }
    }
    Token e = start(Tok::end);
    out.push_back(e);
    return out;
  }

 private:
  char peek(std::size_t k) const { return i_ + k < s_.size() ? s_[i_ + k] : '\0'; }
  Token start(Tok kind) const {
    Token t;
    t.kind = kind;
    t.begin = i_;
    t.line = line_;
    return t;
  }
  std::string_view s_;
  bool extended_;
  const std::map<std::string, unsigned>& names_;
  std::size_t i_ = 0;
  int line_ = 1;
};

// ---- names ---------------------------------------------------------------------------------------------------

std::optional<Type> parse_type(std::string_view s) {
  static const std::map<std::string_view, Type> types = {
      {"pred", Type::pred}, {"b8", Type::b8},       {"b16", Type::b16},   {"b32", Type::b32},     {"b64", Type::b64},
      {"b128", Type::b128}, {"u8", Type::u8},       {"u16", Type::u16},   {"u32", Type::u32},     {"u64", Type::u64},
      {"s8", Type::s8},     {"s16", Type::s16},     {"s32", Type::s32},   {"s64", Type::s64},     {"f16", Type::f16},
      {"f16x2", Type::f16x2}, {"bf16", Type::bf16}, {"bf16x2", Type::bf16x2}, {"tf32", Type::tf32}, {"f32", Type::f32},
      {"f64", Type::f64}};
  const auto it = types.find(s);
  if (it == types.end()) return std::nullopt;
  return it->second;
}

std::optional<Special> parse_special(std::string_view s) {
  static const std::map<std::string_view, Special> specials = {
      {"%tid.x", Special::tid_x},         {"%tid.y", Special::tid_y},           {"%tid.z", Special::tid_z},
      {"%ntid.x", Special::ntid_x},       {"%ntid.y", Special::ntid_y},         {"%ntid.z", Special::ntid_z},
      {"%ctaid.x", Special::ctaid_x},     {"%ctaid.y", Special::ctaid_y},       {"%ctaid.z", Special::ctaid_z},
      {"%nctaid.x", Special::nctaid_x},   {"%nctaid.y", Special::nctaid_y},     {"%nctaid.z", Special::nctaid_z},
      {"%laneid", Special::laneid},       {"%warpid", Special::warpid},         {"%nwarpid", Special::nwarpid},
      {"%smid", Special::smid},           {"%nsmid", Special::nsmid},           {"%gridid", Special::gridid},
      {"%lanemask_eq", Special::lanemask_eq}, {"%lanemask_lt", Special::lanemask_lt},
      {"%lanemask_le", Special::lanemask_le}, {"%lanemask_gt", Special::lanemask_gt},
      {"%lanemask_ge", Special::lanemask_ge}, {"%clock", Special::clock},       {"%clock_hi", Special::clock_hi},
      {"%clock64", Special::clock64},     {"%globaltimer", Special::globaltimer},
      {"%globaltimer_lo", Special::globaltimer_lo}, {"%globaltimer_hi", Special::globaltimer_hi},
      {"%dynamic_smem_size", Special::dynamic_smem_size}};
  const auto it = specials.find(s);
  if (it == specials.end()) return std::nullopt;
  return it->second;
}

// Special registers that exist but that the simulator does not model, each with the reason.
const char* refused_special(std::string_view s) {
  if (s == "%total_smem_size" || s == "%aggr_smem_size" || s.starts_with("%reserved_smem_offset"))
    return "the simulator does not know the size of a kernel's static __shared__ data";
  if (s.starts_with("%cluster") || s.starts_with("%nclusterid") || s == "%is_explicit_cluster")
    return "clusters are run as plain blocks: their special registers are not supported";
  if (s.starts_with("%envreg") || s.starts_with("%pm")) return "the driver's environment and performance-monitor registers are not modelled";
  if (s == "%tid" || s == "%ntid" || s == "%ctaid" || s == "%nctaid") return "name a component: .x, .y or .z";
  return nullptr;
}

// Instructions that are PTX but not supported, with the reason.
const char* refused_instruction(std::string_view base, const std::vector<std::string>& parts) {
  const auto has = [&](std::string_view p) {
    for (const auto& x : parts) {
      if (x == p) return true;
    }
    return false;
  };
  if (base == "mma" || base == "wmma" || base == "wgmma" || base == "ldmatrix" || base == "stmatrix" ||
      base == "movmatrix" || base == "tcgen05")
    return "tensor-core instructions are not supported by the simulator yet (future work)";
  if (base == "mbarrier" || (base == "cp" && (has("bulk") || has("mbarrier"))) || base == "tensormap" ||
      (base == "cp" && parts.size() > 0 && parts[0] == "reduce") || base == "multimem" ||
      ((base == "st" || base == "red") && has("async")))
    return "mbarrier, bulk and tensor copies (TMA) and other asynchronous-proxy instructions are not supported by the "
           "simulator yet (future work)";
  if (base == "ret") return "ret in inline PTX would return from the enclosing function; write `return` in C++";
  if (base == "exit") return "exit in inline PTX ends the thread from inside a statement, which the simulator cannot do; "
                             "write `return` in the kernel";
  if (base == "getctarank" || base == "mapa" || (base == "barrier" && has("cluster")) || base == "clusterlaunchcontrol")
    return "clusters are run as plain blocks: cluster instructions are not supported";
  if (base == "tex" || base == "tld4" || base == "txq" || base == "suld" || base == "sust" || base == "sured" ||
      base == "suq" || base == "istypep")
    return "textures and surfaces are not supported by the simulator";
  if (base == "call" || base == "alloca" || base == "stacksave" || base == "stackrestore")
    return "calls and stack manipulation in inline PTX are not supported";
  static const char* video[] = {"vadd", "vsub", "vabsdiff", "vmin", "vmax", "vshl", "vshr", "vmad", "vset",
                                "vadd2", "vsub2", "vavrg2", "vabsdiff2", "vmin2", "vmax2", "vset2",
                                "vadd4", "vsub4", "vavrg4", "vabsdiff4", "vmin4", "vmax4", "vset4"};
  for (const char* v : video) {
    if (base == v) return "the scalar video instructions are not supported (CUDA's __v* intrinsics are)";
  }
  return nullptr;
}

bool is_cache_hint(std::string_view p) {
  return p == "nc" || p == "ca" || p == "cg" || p == "cs" || p == "lu" || p == "cv" || p == "wb" || p == "wt" ||
         p == "unified" || p.starts_with("L1::") || p.starts_with("L2::");
}

// ---- the parser ----------------------------------------------------------------------------------------------

struct OperandSpec {
  bool output = false, inout = false;
  char letter = 'r';
  int tied = -1;
  std::string name;
};

int letter_bits(char c) {
  switch (c) {
    case 'h': return 16;
    case 'r':
    case 'f': return 32;
    case 'l':
    case 'd':
    case 'n': return 64;
    case 'c':
    case 'b': return 8;
    default: return 0;
  }
}

std::vector<OperandSpec> parse_operand_specs(std::string_view s) {
  std::vector<OperandSpec> out;
  if (s.empty()) return out;
  std::size_t at = 0;
  while (at <= s.size()) {
    std::size_t comma = s.find(',', at);
    if (comma == std::string_view::npos) comma = s.size();
    std::string_view c = s.substr(at, comma - at);
    OperandSpec spec;
    const std::size_t bracket = c.find('[');
    if (bracket != std::string_view::npos) {
      const std::size_t close = c.find(']', bracket);
      spec.name = std::string(c.substr(bracket + 1, close == std::string_view::npos ? std::string_view::npos : close - bracket - 1));
      c = c.substr(0, bracket);
    }
    for (char ch : c) {
      if (ch == '=') {
        spec.output = true;
      } else if (ch == '+') {
        spec.output = spec.inout = true;
      } else if (ch == '&') {
        // early clobber: each operand has a slot of its own anyway
      } else if (std::isdigit(static_cast<unsigned char>(ch))) {
        spec.tied = ch - '0';
      } else {
        spec.letter = ch;
      }
    }
    if (spec.tied < 0 && letter_bits(spec.letter) == 0) throw Refusal{fmt::format("unsupported constraint \"{}\"", c)};
    out.push_back(spec);
    at = comma + 1;
  }
  for (auto& spec : out) {
    if (spec.tied >= 0) {
      if (static_cast<std::size_t>(spec.tied) >= out.size() || !out[static_cast<std::size_t>(spec.tied)].output)
        throw Refusal{fmt::format("constraint \"{}\" ties an input to operand {}, which is not an output", spec.tied, spec.tied)};
      spec.letter = out[static_cast<std::size_t>(spec.tied)].letter;
    }
  }
  return out;
}

class Parser {
 public:
  Parser(Program& p, std::string_view text, bool extended, std::vector<OperandSpec> specs)
      : p_(p), text_(text), extended_(extended), specs_(std::move(specs)) {}

  void run() {
    std::map<std::string, unsigned> names;
    for (std::size_t i = 0; i < specs_.size(); ++i) {
      if (!specs_[i].name.empty()) names[specs_[i].name] = static_cast<unsigned>(i);
    }
    p_.operand_count = static_cast<unsigned>(specs_.size());
    for (const auto& s : specs_) {
      p_.operand_bits.push_back(static_cast<std::uint8_t>(letter_bits(s.letter)));
      p_.operand_is_output.push_back(s.output);
      p_.tied.push_back(s.tied);
      p_.register_bits.push_back(static_cast<std::uint8_t>(letter_bits(s.letter)));
      p_.register_names.push_back(fmt::format("%{}", p_.register_names.size()));
    }
    t_ = Lexer(text_, extended_, names).run();
    scopes_.emplace_back();
    while (peek().kind != Tok::end) statement();
    if (scopes_.size() != 1) fail(peek(), "a `{` without its `}`");
    for (const auto& f : fixups_) {
      const auto it = labels_.find(f.name);
      if (it == labels_.end()) {
        throw Refusal{fmt::format("`{}`: no label {} in the statement", p_.texts[p_.code[f.instr].text], f.name)};
      }
      p_.code[f.instr].args[f.arg].target = it->second;
      if (it->second <= f.instr) p_.has_backward_branch = true;
    }
  }

 private:
  struct Fixup {
    std::size_t instr, arg;
    std::string name;
  };

  const Token& peek(std::size_t k = 0) const { return t_[std::min(i_ + k, t_.size() - 1)]; }
  const Token& next() {
    const Token& t = t_[i_];
    if (i_ + 1 < t_.size()) ++i_;
    return t;
  }
  bool is_punct(const Token& t, char c) const { return t.kind == Tok::punct && t.text[0] == c; }
  bool accept(char c) {
    if (!is_punct(peek(), c)) return false;
    next();
    return true;
  }
  [[noreturn]] void fail(const Token& at, const std::string& why) const {
    throw Refusal{fmt::format("line {} of the asm text, at `{}`: {}", at.line, describe(at), why)};
  }
  static std::string describe(const Token& t) {
    switch (t.kind) {
      case Tok::end: return "the end";
      case Tok::operand: return fmt::format("%{}", t.operand);
      case Tok::string: return "\"" + t.text + "\"";
      default: return t.text;
    }
  }
  void expect(char c) {
    if (!accept(c)) fail(peek(), fmt::format("expected `{}`", c));
  }

  std::uint16_t find_register(const std::string& name) const {
    for (auto s = scopes_.rbegin(); s != scopes_.rend(); ++s) {
      const auto it = s->find(name);
      if (it != s->end()) return it->second;
    }
    return Program::sink_register;
  }
  std::uint16_t operand_register(const Token& t) const {
    if (t.operand >= p_.operand_count) {
      fail(t, fmt::format("the statement has {} operand{}", p_.operand_count, p_.operand_count == 1 ? "" : "s"));
    }
    const int tied = p_.tied[t.operand];
    return static_cast<std::uint16_t>(tied >= 0 ? tied : static_cast<int>(t.operand));
  }

  void statement() {
    const Token& t = peek();
    if (is_punct(t, '{')) {
      next();
      scopes_.emplace_back();
      return;
    }
    if (is_punct(t, '}')) {
      next();
      if (scopes_.size() == 1) fail(t, "a `}` with no `{` before it");
      scopes_.pop_back();
      return;
    }
    if (is_punct(t, ';')) {
      next();
      return;
    }
    if (t.kind == Tok::word && t.text[0] == '.') {
      directive();
      return;
    }
    if (t.kind == Tok::word && is_punct(peek(1), ':')) {
      if (labels_.count(t.text) != 0) fail(t, "a label defined twice");
      labels_[t.text] = static_cast<std::uint32_t>(p_.code.size());
      next();
      next();
      return;
    }
    instruction();
  }

  void directive() {
    const Token& d = next();
    if (d.text == ".reg") {
      const Token& ty = next();
      if (ty.kind != Tok::word || ty.text[0] != '.') fail(ty, "expected the registers' type");
      if (ty.text.starts_with(".v")) fail(ty, "vector registers are not supported");
      const auto type = parse_type(std::string_view(ty.text).substr(1));
      if (!type || *type == Type::b128) fail(ty, "not a register type");
      const int bits = *type == Type::pred ? 1 : std::max(type_bits(*type), 16);
      for (;;) {
        const Token& name = next();
        if (name.kind != Tok::word || name.text[0] == '.') fail(name, "expected a register name");
        if (accept('<')) {
          const Token& n = next();
          if (n.kind != Tok::number) fail(n, "expected the number of registers");
          const unsigned long count = std::strtoul(n.text.c_str(), nullptr, 0);
          expect('>');
          if (count > 4096) fail(n, "too many registers");
          for (unsigned long k = 0; k < count; ++k) declare(name.text + std::to_string(k), bits, name);
        } else {
          declare(name.text, bits, name);
        }
        if (accept(',')) continue;
        expect(';');
        break;
      }
      return;
    }
    if (d.text == ".pragma") {
      while (peek().kind != Tok::end && !is_punct(peek(), ';')) next();
      expect(';');
      return;
    }
    fail(d, "only .reg declarations and .pragma are supported in inline PTX");
  }

  void declare(const std::string& name, int bits, const Token& at) {
    if (scopes_.back().count(name) != 0) fail(at, "a register declared twice in one scope");
    if (p_.register_bits.size() >= 0xfff0) fail(at, "too many registers");
    const auto index = static_cast<std::uint16_t>(p_.register_bits.size());
    p_.register_bits.push_back(static_cast<std::uint8_t>(bits));
    p_.register_names.push_back(name);
    scopes_.back()[name] = index;
  }

  std::string statement_text(std::size_t begin, std::size_t end) const {
    std::string out;
    bool space = false;
    for (std::size_t k = begin; k < end && k < text_.size(); ++k) {
      const char c = text_[k];
      if (std::isspace(static_cast<unsigned char>(c))) {
        space = true;
        continue;
      }
      if (space && !out.empty()) out += ' ';
      space = false;
      out += c;
    }
    return out;
  }

  void instruction() {
    const std::size_t begin = peek().begin;
    const int line = peek().line;
    Instr in;
    if (accept('@')) {
      in.guard_negate = accept('!');
      const Token& g = next();
      std::uint16_t reg = Program::sink_register;
      if (g.kind == Tok::word) reg = find_register(g.text);
      if (g.kind == Tok::operand) reg = operand_register(g);
      if (reg == Program::sink_register) fail(g, "expected a predicate register after @");
      if (p_.register_bits[reg] != 1) fail(g, "a guard must be a .pred register");
      in.guard = static_cast<std::int16_t>(reg);
    }
    const Token& op = next();
    if (op.kind != Tok::word || op.text[0] == '.' || op.text[0] == '%') fail(op, "expected an instruction");
    std::vector<std::string> parts;
    {
      std::string_view w = op.text;
      std::size_t at = 0;
      for (;;) {
        const std::size_t dot = w.find('.', at);
        parts.emplace_back(w.substr(at, dot == std::string_view::npos ? std::string_view::npos : dot - at));
        if (dot == std::string_view::npos) break;
        at = dot + 1;
      }
    }
    const std::string base = parts.front();
    parts.erase(parts.begin());
    // Operands, up to the `;`.
    bool pair = false;
    const bool branch = base == "bra";
    if (!is_punct(peek(), ';')) {
      for (;;) {
        in.args.push_back(operand(branch));
        if (accept('|')) {
          if (in.args.size() != 1) fail(peek(), "only the first operand may be a pair d|p");
          in.args.push_back(operand(false));
          pair = true;
        }
        if (accept(',')) continue;
        break;
      }
    }
    if (!is_punct(peek(), ';')) fail(peek(), "expected `,` or `;`");
    const std::size_t end = peek().begin + 1;
    next();
    in.text = static_cast<std::uint32_t>(p_.texts.size());
    p_.texts.push_back(statement_text(begin, end));
    current_line_ = line;
    in.pair = pair;
    decode(in, base, parts, pair);
    for (std::size_t a = 0; a < pending_labels_.size(); ++a) {
      fixups_.push_back({p_.code.size(), pending_labels_[a].first, pending_labels_[a].second});
    }
    pending_labels_.clear();
    p_.code.push_back(std::move(in));
  }

  Arg operand(bool branch) {
    Arg a;
    if (accept('{')) {
      a.kind = Arg::Kind::vector;
      a.first = static_cast<std::uint16_t>(p_.vectors.size());
      for (;;) {
        const Token& t = next();
        if (t.kind == Tok::word && t.text == "_") {
          p_.vectors.push_back(Program::sink_register);
        } else if (t.kind == Tok::operand) {
          p_.vectors.push_back(operand_register(t));
        } else if (t.kind == Tok::word) {
          const std::uint16_t r = find_register(t.text);
          if (r == Program::sink_register) fail(t, "unknown register");
          p_.vectors.push_back(r);
        } else {
          fail(t, "a vector's elements must be registers");
        }
        ++a.count;
        if (accept(',')) continue;
        expect('}');
        break;
      }
      return a;
    }
    if (accept('[')) {
      a.kind = Arg::Kind::address;
      std::int64_t offset = 0;
      bool negative = false;
      for (bool first = true;; first = false) {
        if (!first || is_punct(peek(), '-')) {
          if (accept('+')) {
            negative = accept('-');
          } else if (accept('-')) {
            negative = true;
          } else if (!first) {
            break;
          }
        }
        const Token& t = next();
        if (t.kind == Tok::number) {
          const Arg n = number(t, negative);
          if (n.kind != Arg::Kind::imm_int) fail(t, "an address offset must be an integer");
          offset += static_cast<std::int64_t>(n.bits);
        } else if (t.kind == Tok::operand || t.kind == Tok::word) {
          if (negative) fail(t, "a register cannot be subtracted in an address");
          const std::uint16_t r = t.kind == Tok::operand ? operand_register(t) : find_register(t.text);
          if (r == Program::sink_register) fail(t, "unknown register in an address");
          if (!a.has_base) {
            a.has_base = true;
            a.reg = r;
          } else if (!a.has_index) {
            a.has_index = true;
            a.index = r;
          } else {
            fail(t, "an address is a register plus an offset");
          }
        } else {
          fail(t, "expected a register or an offset");
        }
        negative = false;
      }
      expect(']');
      a.bits = static_cast<std::uint64_t>(offset);
      return a;
    }
    a.negate = accept('!');
    const bool minus = accept('-');
    const Token& t = next();
    if (t.kind == Tok::number) {
      if (a.negate) fail(t, "`!` applies to a predicate");
      return number(t, minus);
    }
    if (minus) fail(t, "only a literal may be negated");
    if (t.kind == Tok::operand) {
      a.kind = Arg::Kind::reg;
      a.reg = operand_register(t);
      return a;
    }
    if (t.kind != Tok::word) fail(t, "expected an operand");
    if (t.text == "_") {
      a.kind = Arg::Kind::sink;
      return a;
    }
    if (t.text == "WARP_SZ") {
      a.kind = Arg::Kind::imm_int;
      a.bits = 32;
      return a;
    }
    const std::uint16_t r = find_register(t.text);
    if (r != Program::sink_register) {
      a.kind = Arg::Kind::reg;
      a.reg = r;
      return a;
    }
    if (t.text[0] == '%') {
      if (const auto s = parse_special(t.text)) {
        a.kind = Arg::Kind::special;
        a.special = *s;
        return a;
      }
      if (const char* why = refused_special(t.text)) fail(t, fmt::format("special register {}: {}", t.text, why));
    }
    if (branch) {
      a.kind = Arg::Kind::label;
      pending_labels_.emplace_back(0, t.text);
      return a;
    }
    fail(t, "unknown register or special register");
  }

  Arg number(const Token& t, bool negative) const {
    Arg a;
    const std::string& s = t.text;
    const auto hex_value = [&](std::size_t from, std::size_t digits) {
      if (s.size() != from + digits) fail(t, fmt::format("expected {} hexadecimal digits", digits));
      std::uint64_t v = 0;
      for (std::size_t k = from; k < s.size(); ++k) {
        if (!std::isxdigit(static_cast<unsigned char>(s[k]))) fail(t, "not a hexadecimal digit");
        v = v * 16 + static_cast<std::uint64_t>(std::isdigit(static_cast<unsigned char>(s[k])) ? s[k] - '0'
                                                                                               : (std::tolower(s[k]) - 'a' + 10));
      }
      return v;
    };
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'f' || s[1] == 'F')) {
      a.kind = Arg::Kind::imm_f32;
      a.bits = hex_value(2, 8) ^ (negative ? 0x80000000u : 0u);
      return a;
    }
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'd' || s[1] == 'D')) {
      a.kind = Arg::Kind::imm_f64;
      a.bits = hex_value(2, 16) ^ (negative ? 0x8000000000000000ull : 0ull);
      return a;
    }
    const bool is_hex = s.size() > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    if (!is_hex && (s.find('.') != std::string::npos || s.find('e') != std::string::npos || s.find('E') != std::string::npos)) {
      char* end = nullptr;
      const double v = std::strtod(s.c_str(), &end);
      if (end == nullptr || *end != '\0') fail(t, "not a number");
      a.kind = Arg::Kind::imm_f64;
      const double signed_v = negative ? -v : v;
      std::memcpy(&a.bits, &signed_v, 8);
      return a;
    }
    std::string digits = s;
    while (!digits.empty() && (digits.back() == 'U' || digits.back() == 'u')) digits.pop_back();
    int radix = 10;
    std::size_t from = 0;
    if (is_hex) {
      radix = 16;
      from = 2;
    } else if (digits.size() > 1 && digits[0] == '0' && (digits[1] == 'b' || digits[1] == 'B')) {
      radix = 2;
      from = 2;
    } else if (digits.size() > 1 && digits[0] == '0') {
      radix = 8;
      from = 1;
    }
    if (from >= digits.size()) fail(t, "not a number");
    std::uint64_t v = 0;
    for (std::size_t k = from; k < digits.size(); ++k) {
      const char c = static_cast<char>(std::tolower(static_cast<unsigned char>(digits[k])));
      const int d = std::isdigit(static_cast<unsigned char>(c)) ? c - '0' : (c >= 'a' && c <= 'f' ? c - 'a' + 10 : 99);
      if (d >= radix) fail(t, "not a number");
      v = v * static_cast<std::uint64_t>(radix) + static_cast<std::uint64_t>(d);
    }
    a.kind = Arg::Kind::imm_int;
    a.bits = negative ? ~v + 1 : v;
    return a;
  }

  // ---- decoding: the instruction's name and modifiers, and its operands' shape ----

  [[noreturn]] void refuse(const Instr& in, const std::string& why) const {
    throw Refusal{fmt::format("line {} of the asm text, `{}`: {}", current_line_, p_.texts[in.text], why)};
  }

  // The modifiers every instruction family shares; returns false for a word none of them knows.
  bool common_modifier(Instr& in, const std::string& m) const {
    if (const auto t = parse_type(m)) {
      if (in.type == Type::none) {
        in.type = *t;
      } else if (in.type2 == Type::none) {
        in.type2 = *t;
      } else {
        refuse(in, "too many types");
      }
      return true;
    }
    static const std::map<std::string_view, Round> rounds = {{"rn", Round::rn},   {"rz", Round::rz},   {"rm", Round::rm},
                                                             {"rp", Round::rp},   {"rna", Round::rna}, {"rni", Round::rni},
                                                             {"rzi", Round::rzi}, {"rmi", Round::rmi}, {"rpi", Round::rpi}};
    if (const auto it = rounds.find(m); it != rounds.end()) {
      in.round = it->second;
      return true;
    }
    if (m == "ftz") return in.ftz = true;
    if (m == "sat") return in.sat = true;
    return false;
  }
  bool space_modifier(Instr& in, const std::string& m) const {
    if (m == "global") {
      in.space = Space::global;
    } else if (m == "shared" || m == "shared::cta" || m == "shared::cluster") {
      in.space = Space::shared;
    } else if (m == "local") {
      in.space = Space::local;
    } else if (m == "const") {
      in.space = Space::constant;
    } else if (m == "param") {
      refuse(in, "the .param state space cannot be reached from inline PTX in the simulator");
    } else {
      return false;
    }
    return true;
  }
  bool order_modifier(Instr& in, const std::string& m) const {
    static const std::map<std::string_view, Sem> sems = {{"weak", Sem::weak},       {"relaxed", Sem::relaxed},
                                                         {"acquire", Sem::acquire}, {"release", Sem::release},
                                                         {"acq_rel", Sem::acq_rel}, {"sc", Sem::sc},
                                                         {"volatile", Sem::volatile_}};
    static const std::map<std::string_view, Scope> scopes = {
        {"cta", Scope::cta}, {"cluster", Scope::cluster}, {"gpu", Scope::gpu}, {"sys", Scope::sys}};
    if (const auto it = sems.find(m); it != sems.end()) {
      in.sem = it->second;
      return true;
    }
    if (const auto it = scopes.find(m); it != scopes.end()) {
      in.scope = it->second;
      return true;
    }
    if (m == "mmio") refuse(in, ".mmio accesses are not supported");
    return false;
  }
  static std::optional<Mode> atomic_operation(const std::string& m) {
    static const std::map<std::string_view, Mode> ops = {{"add", Mode::a_add}, {"min", Mode::a_min}, {"max", Mode::a_max},
                                                         {"inc", Mode::a_inc}, {"dec", Mode::a_dec}, {"and", Mode::a_and},
                                                         {"or", Mode::a_or},   {"xor", Mode::a_xor}, {"exch", Mode::a_exch},
                                                         {"cas", Mode::a_cas}};
    const auto it = ops.find(m);
    if (it == ops.end()) return std::nullopt;
    return it->second;
  }
  static std::optional<Cmp> comparison(const std::string& m) {
    static const std::map<std::string_view, Cmp> cmps = {
        {"eq", Cmp::eq},   {"ne", Cmp::ne},   {"lt", Cmp::lt},   {"le", Cmp::le},   {"gt", Cmp::gt},   {"ge", Cmp::ge},
        {"lo", Cmp::lo},   {"ls", Cmp::ls},   {"hi", Cmp::hi},   {"hs", Cmp::hs},   {"equ", Cmp::equ}, {"neu", Cmp::neu},
        {"ltu", Cmp::ltu}, {"leu", Cmp::leu}, {"gtu", Cmp::gtu}, {"geu", Cmp::geu}, {"num", Cmp::num}, {"nan", Cmp::nan}};
    const auto it = cmps.find(m);
    if (it == cmps.end()) return std::nullopt;
    return it->second;
  }

  // Operand shapes.
  bool is_dest(const Arg& a) const { return a.kind == Arg::Kind::reg || a.kind == Arg::Kind::sink; }
  bool is_value(const Arg& a) const {
    return a.kind == Arg::Kind::reg || a.kind == Arg::Kind::imm_int || a.kind == Arg::Kind::imm_f32 ||
           a.kind == Arg::Kind::imm_f64 || a.kind == Arg::Kind::special;
  }
  bool is_pred_reg(const Arg& a) const { return a.kind == Arg::Kind::reg && p_.register_bits[a.reg] == 1; }
  void shape(const Instr& in, std::size_t min, std::size_t max) const {
    if (in.args.size() < min || in.args.size() > max) {
      refuse(in, min == max ? fmt::format("expected {} operand{}", min, min == 1 ? "" : "s")
                            : fmt::format("expected {} to {} operands", min, max));
    }
  }
  // A destination followed by value sources.
  void dest_and_values(const Instr& in, std::size_t sources) const {
    shape(in, sources + 1, sources + 1);
    if (!is_dest(in.args[0])) refuse(in, "the first operand must be a register");
    for (std::size_t k = 1; k <= sources; ++k) {
      if (!is_value(in.args[k])) refuse(in, fmt::format("operand {} must be a register or a literal", k + 1));
    }
  }
  void need_type(const Instr& in, std::initializer_list<Type> allowed) const {
    for (Type t : allowed) {
      if (in.type == t) return;
    }
    refuse(in, in.type == Type::none ? "missing its type" : fmt::format("type .{} is not supported here", type_name(in.type)));
  }
  void no_second_type(const Instr& in) const {
    if (in.type2 != Type::none) refuse(in, "one type expected");
  }

  static constexpr std::initializer_list<Type> ints16_64 = {Type::u16, Type::u32, Type::u64, Type::s16, Type::s32, Type::s64};
  static constexpr std::initializer_list<Type> floats = {Type::f32, Type::f64};
  static constexpr std::initializer_list<Type> arith = {Type::u16, Type::u32, Type::u64, Type::s16,  Type::s32,
                                                        Type::s64, Type::f32, Type::f64, Type::f16,  Type::f16x2,
                                                        Type::bf16, Type::bf16x2};

  void decode(Instr& in, const std::string& base, const std::vector<std::string>& parts, bool pair) {
    if (const char* why = refused_instruction(base, parts)) refuse(in, why);
    std::vector<std::string> rest;  // modifiers the family's own words did not take
    const auto take_rest = [&](auto&& own) {
      for (const auto& m : parts) {
        if (!own(m)) rest.push_back(m);
      }
    };
    const auto finish = [&](bool space, bool order, bool hints) {
      for (const auto& m : rest) {
        if (common_modifier(in, m)) continue;
        if (space && space_modifier(in, m)) continue;
        if (order && order_modifier(in, m)) continue;
        if (hints && is_cache_hint(m)) continue;
        refuse(in, fmt::format("modifier .{} is not supported", m));
      }
    };
    const auto no_pair = [&] {
      if (pair) refuse(in, "this instruction has no d|p form");
    };
    const auto simple = [&](Op op) {
      in.op = op;
      take_rest([](const std::string&) { return false; });
      finish(false, false, false);
      no_pair();
    };

    if (base == "mov") {
      simple(Op::mov);
      no_second_type(in);
      shape(in, 2, 2);
      need_type(in, {Type::pred, Type::b16, Type::b32, Type::b64, Type::u16, Type::u32, Type::u64, Type::s16, Type::s32,
                     Type::s64, Type::f32, Type::f64});
      const bool dv = in.args[0].kind == Arg::Kind::vector, sv = in.args[1].kind == Arg::Kind::vector;
      if (dv && sv) refuse(in, "one side of a mov may be a vector");
      if (dv || sv) {
        const Arg& v = dv ? in.args[0] : in.args[1];
        if ((in.type != Type::b32 && in.type != Type::b64) || (v.count != 2 && v.count != 4) ||
            (in.type == Type::b32 && v.count != 2))
          refuse(in, "a vector mov packs or unpacks a .b32 as 2 halves or a .b64 as 2 or 4 parts");
        if (dv && !is_value(in.args[1])) refuse(in, "expected a register to unpack");
        if (sv && !is_dest(in.args[0])) refuse(in, "expected a register to pack into");
      } else {
        dest_and_values(in, 1);
      }
      return;
    }
    if (base == "cvt") {
      in.op = Op::cvt;
      take_rest([&](const std::string& m) {
        if (m == "relu") return in.relu = true;
        if (m == "satfinite") return in.satfinite = true;
        return false;
      });
      finish(false, false, false);
      no_pair();
      if (in.type == Type::none || in.type2 == Type::none) refuse(in, "cvt needs a destination and a source type");
      const bool packed = in.type == Type::f16x2 || in.type == Type::bf16x2;
      if (packed) {
        if (in.type2 != Type::f32) refuse(in, "packed conversions are supported from two .f32 values");
        if (in.round != Round::rn && in.round != Round::rz) refuse(in, "a packed conversion needs .rn or .rz");
        dest_and_values(in, 2);
        return;
      }
      if (in.type == Type::tf32) {
        if (in.type2 != Type::f32 || (in.round != Round::rna && in.round != Round::rn && in.round != Round::rz))
          refuse(in, "cvt to .tf32 is supported from .f32 with .rna, .rn or .rz");
      }
      const auto conv = [](Type t) { return t != Type::pred && t != Type::b128 && t != Type::f16x2 && t != Type::bf16x2; };
      if (!conv(in.type) || !conv(in.type2)) refuse(in, "unsupported conversion types");
      const bool fd = is_float(in.type), fs = is_float(in.type2);
      if (fs && !fd && in.round != Round::rni && in.round != Round::rzi && in.round != Round::rmi && in.round != Round::rpi)
        refuse(in, "a float-to-integer cvt needs .rni, .rzi, .rmi or .rpi");
      if (!fs && fd && in.round != Round::rn && in.round != Round::rz && in.round != Round::rm && in.round != Round::rp)
        refuse(in, "an integer-to-float cvt needs .rn, .rz, .rm or .rp");
      if (!fs && !fd && in.round != Round::none) refuse(in, "an integer-to-integer cvt takes no rounding");
      dest_and_values(in, 1);
      return;
    }
    if (base == "cvta") {
      in.op = Op::cvta;
      in.mode = Mode::to_generic;
      take_rest([&](const std::string& m) {
        if (m == "to") {
          in.mode = Mode::none;
          return true;
        }
        return false;
      });
      finish(true, false, false);
      no_pair();
      need_type(in, {Type::u32, Type::u64});
      if (in.space == Space::generic) refuse(in, "cvta needs a state space");
      dest_and_values(in, 1);
      return;
    }
    if (base == "isspacep") {
      in.op = Op::isspacep;
      for (const auto& m : parts) {
        if (!space_modifier(in, m)) refuse(in, fmt::format("modifier .{} is not supported", m));
      }
      no_pair();
      if (in.space == Space::constant) refuse(in, "isspacep.const: __constant__ data is not told apart from global data");
      if (in.space == Space::generic) refuse(in, "isspacep needs a state space");
      shape(in, 2, 2);
      if (!is_pred_reg(in.args[0]) || !is_value(in.args[1])) refuse(in, "expected isspacep.space p, a");
      return;
    }
    if (base == "createpolicy") {
      in.op = Op::createpolicy;  // the policy is opaque, and every cache hint is ignored
      no_pair();
      if (in.args.empty() || !is_dest(in.args[0])) refuse(in, "expected the policy's register first");
      return;
    }
    if (base == "add" || base == "sub" || base == "addc" || base == "subc") {
      in.op = base == "add" ? Op::add : base == "sub" ? Op::sub : base == "addc" ? Op::addc : Op::subc;
      take_rest([&](const std::string& m) {
        if (m == "cc") return in.cc = true;
        if (m == "relu") return in.relu = true;
        return false;
      });
      finish(false, false, false);
      no_pair();
      no_second_type(in);
      need_type(in, arith);
      if ((in.cc || in.op == Op::addc || in.op == Op::subc) && in.type != Type::u32 && in.type != Type::s32 &&
          in.type != Type::u64 && in.type != Type::s64)
        refuse(in, "carry arithmetic takes .u32, .s32, .u64 or .s64");
      if (in.sat && !is_float(in.type) && in.type != Type::s32) refuse(in, ".sat applies to .s32 integer additions");
      dest_and_values(in, 2);
      return;
    }
    if (base == "mul" || base == "mad" || base == "madc" || base == "mul24" || base == "mad24") {
      in.op = base == "mul" ? Op::mul : base == "mad" ? Op::mad : base == "madc" ? Op::madc : base == "mul24" ? Op::mul24 : Op::mad24;
      take_rest([&](const std::string& m) {
        if (m == "lo") return (in.mode = Mode::lo), true;
        if (m == "hi") return (in.mode = Mode::hi), true;
        if (m == "wide") return (in.mode = Mode::wide), true;
        if (m == "cc") return in.cc = true;
        if (m == "relu") return in.relu = true;
        return false;
      });
      finish(false, false, false);
      no_pair();
      no_second_type(in);
      const bool three = in.op == Op::mul || in.op == Op::mul24;
      if (in.op == Op::mul24 || in.op == Op::mad24) {
        need_type(in, {Type::u32, Type::s32});
        if (in.mode != Mode::lo && in.mode != Mode::hi) refuse(in, "mul24 and mad24 need .lo or .hi");
      } else if (is_float(in.type)) {
        need_type(in, arith);
        if (in.mode != Mode::none || in.cc) refuse(in, ".lo, .hi, .wide and .cc apply to integers");
      } else {
        need_type(in, ints16_64);
        if (in.mode == Mode::none) refuse(in, "an integer mul or mad needs .lo, .hi or .wide");
        if (in.mode == Mode::wide && (in.type == Type::u64 || in.type == Type::s64)) refuse(in, ".wide takes a 16- or 32-bit type");
        if ((in.cc || in.op == Op::madc) && in.mode == Mode::wide) refuse(in, "carry arithmetic with .wide is not supported");
        if (in.sat && !(in.op == Op::mad && in.mode == Mode::hi && in.type == Type::s32)) refuse(in, ".sat applies to mad.hi.sat.s32");
      }
      dest_and_values(in, three ? 2 : 3);
      return;
    }
    if (base == "sad" || base == "rem" || base == "popc" || base == "clz" || base == "brev" || base == "bfe" ||
        base == "bfi" || base == "fns" || base == "not" || base == "cnot" || base == "shl" || base == "lop3" ||
        base == "selp" || base == "copysign" || base == "and" || base == "or" || base == "xor") {
      static const std::map<std::string_view, std::pair<Op, std::size_t>> table = {
          {"sad", {Op::sad, 3}},   {"rem", {Op::rem, 2}},   {"popc", {Op::popc, 1}}, {"clz", {Op::clz, 1}},
          {"brev", {Op::brev, 1}}, {"bfe", {Op::bfe, 3}},   {"bfi", {Op::bfi, 4}},   {"fns", {Op::fns, 3}},
          {"not", {Op::not_, 1}},  {"cnot", {Op::cnot, 1}}, {"shl", {Op::shl, 2}},   {"lop3", {Op::lop3, 4}},
          {"selp", {Op::selp, 3}}, {"copysign", {Op::copysign, 2}}, {"and", {Op::and_, 2}}, {"or", {Op::or_, 2}},
          {"xor", {Op::xor_, 2}}};
      const auto [op, sources] = table.at(base);
      simple(op);
      no_second_type(in);
      switch (op) {
        case Op::sad: need_type(in, ints16_64); break;
        case Op::rem: need_type(in, ints16_64); break;
        case Op::popc:
        case Op::clz:
        case Op::brev: need_type(in, {Type::b32, Type::b64}); break;
        case Op::bfe: need_type(in, {Type::u32, Type::u64, Type::s32, Type::s64}); break;
        case Op::bfi: need_type(in, {Type::b32, Type::b64}); break;
        case Op::fns:
        case Op::lop3: need_type(in, {Type::b32}); break;
        case Op::not_:
        case Op::cnot:
        case Op::and_:
        case Op::or_:
        case Op::xor_: need_type(in, {Type::pred, Type::b16, Type::b32, Type::b64}); break;
        case Op::shl: need_type(in, {Type::b16, Type::b32, Type::b64}); break;
        case Op::copysign: need_type(in, floats); break;
        default:
          need_type(in, {Type::b16, Type::b32, Type::b64, Type::u16, Type::u32, Type::u64, Type::s16, Type::s32, Type::s64,
                         Type::f32, Type::f64});
      }
      if (op == Op::cnot && in.type == Type::pred) refuse(in, "cnot takes .b16, .b32 or .b64");
      dest_and_values(in, sources);
      if (op == Op::lop3 && in.args[4].kind != Arg::Kind::imm_int && !(in.args[4].kind == Arg::Kind::reg && in.args[4].reg < p_.operand_count))
        refuse(in, "lop3's lookup table must be an immediate");
      if (op == Op::selp && !is_pred_reg(in.args[3]) ) refuse(in, "selp's selector must be a predicate");
      return;
    }
    if (base == "div" || base == "abs" || base == "neg" || base == "min" || base == "max") {
      in.op = base == "div" ? Op::div : base == "abs" ? Op::abs : base == "neg" ? Op::neg : base == "min" ? Op::min : Op::max;
      take_rest([&](const std::string& m) {
        if (m == "approx") return in.approx = true;
        if (m == "full") return in.approx = true;  // div.full.f32: 2 ulp, computed exactly here
        if (m == "NaN") return in.nan = true;
        if (m == "relu") return in.relu = true;
        return false;
      });
      finish(false, false, false);
      no_pair();
      no_second_type(in);
      if (in.op == Op::div) {
        need_type(in, {Type::u16, Type::u32, Type::u64, Type::s16, Type::s32, Type::s64, Type::f32, Type::f64});
        if (in.type == Type::f64 && in.round == Round::none) refuse(in, "div.f64 needs a rounding modifier");
      } else if (in.op == Op::abs || in.op == Op::neg) {
        need_type(in, {Type::s16, Type::s32, Type::s64, Type::f32, Type::f64, Type::f16, Type::f16x2, Type::bf16, Type::bf16x2});
      } else {
        need_type(in, arith);
        if (in.relu && in.type != Type::s32 && !is_float(in.type)) refuse(in, ".relu applies to .s32 and the 16-bit float types");
      }
      dest_and_values(in, in.op == Op::abs || in.op == Op::neg ? 1 : 2);
      return;
    }
    if (base == "shr") {
      simple(Op::shr);
      no_second_type(in);
      need_type(in, {Type::b16, Type::b32, Type::b64, Type::u16, Type::u32, Type::u64, Type::s16, Type::s32, Type::s64});
      dest_and_values(in, 2);
      return;
    }
    if (base == "bfind") {
      in.op = Op::bfind;
      take_rest([&](const std::string& m) { return m == "shiftamt" ? (in.shiftamt = true) : false; });
      finish(false, false, false);
      no_pair();
      need_type(in, {Type::u32, Type::u64, Type::s32, Type::s64});
      dest_and_values(in, 1);
      return;
    }
    if (base == "shf") {
      in.op = Op::shf;
      take_rest([&](const std::string& m) {
        if (m == "l") return (in.mode = Mode::l), true;
        if (m == "r") return (in.mode = Mode::r), true;
        if (m == "wrap") return in.wrap = true;
        if (m == "clamp") return true;
        return false;
      });
      finish(false, false, false);
      no_pair();
      need_type(in, {Type::b32});
      if (in.mode == Mode::none) refuse(in, "shf needs .l or .r");
      dest_and_values(in, 3);
      return;
    }
    if (base == "prmt") {
      in.op = Op::prmt;
      take_rest([&](const std::string& m) {
        static const std::map<std::string_view, Mode> modes = {{"f4e", Mode::f4e}, {"b4e", Mode::b4e}, {"rc8", Mode::rc8},
                                                               {"ecl", Mode::ecl}, {"ecr", Mode::ecr}, {"rc16", Mode::rc16}};
        const auto it = modes.find(m);
        if (it == modes.end()) return false;
        in.mode = it->second;
        return true;
      });
      finish(false, false, false);
      no_pair();
      need_type(in, {Type::b32});
      dest_and_values(in, 3);
      return;
    }
    if (base == "dp4a" || base == "dp2a") {
      in.op = base == "dp4a" ? Op::dp4a : Op::dp2a;
      take_rest([&](const std::string& m) {
        if (m == "lo") return (in.mode = Mode::lo), true;
        if (m == "hi") return (in.mode = Mode::hi), true;
        return false;
      });
      finish(false, false, false);
      no_pair();
      const auto ok = [](Type t) { return t == Type::u32 || t == Type::s32; };
      if (!ok(in.type) || !ok(in.type2)) refuse(in, "expected two types, each .u32 or .s32");
      if (in.op == Op::dp2a && in.mode == Mode::none) refuse(in, "dp2a needs .lo or .hi");
      dest_and_values(in, 3);
      return;
    }
    if (base == "fma") {
      in.op = Op::fma;
      take_rest([&](const std::string& m) { return m == "relu" ? (in.relu = true) : false; });
      finish(false, false, false);
      no_pair();
      no_second_type(in);
      need_type(in, {Type::f32, Type::f64, Type::f16, Type::f16x2, Type::bf16, Type::bf16x2});
      if (in.round == Round::none) refuse(in, "fma needs a rounding modifier (.rn, .rz, .rm, .rp)");
      dest_and_values(in, 3);
      return;
    }
    if (base == "rcp" || base == "sqrt" || base == "rsqrt" || base == "ex2" || base == "lg2" || base == "sin" ||
        base == "cos" || base == "tanh") {
      static const std::map<std::string_view, Op> ops = {{"rcp", Op::rcp}, {"sqrt", Op::sqrt}, {"rsqrt", Op::rsqrt},
                                                         {"ex2", Op::ex2}, {"lg2", Op::lg2},   {"sin", Op::sin},
                                                         {"cos", Op::cos}, {"tanh", Op::tanh}};
      in.op = ops.at(base);
      take_rest([&](const std::string& m) { return m == "approx" ? (in.approx = true) : false; });
      finish(false, false, false);
      no_pair();
      no_second_type(in);
      const bool exact_form = in.op == Op::rcp || in.op == Op::sqrt;
      if (exact_form) {
        need_type(in, floats);
        if (!in.approx && in.round == Round::none) refuse(in, "needs .approx or a rounding modifier");
      } else {
        need_type(in, in.op == Op::rsqrt ? floats : std::initializer_list<Type>{Type::f32});
        if (!in.approx) refuse(in, "needs .approx");
      }
      dest_and_values(in, 1);
      return;
    }
    if (base == "testp") {
      in.op = Op::testp;
      take_rest([&](const std::string& m) {
        static const std::map<std::string_view, Mode> modes = {
            {"finite", Mode::finite},         {"infinite", Mode::infinite}, {"number", Mode::number},
            {"notanumber", Mode::notanumber}, {"normal", Mode::normal},     {"subnormal", Mode::subnormal}};
        const auto it = modes.find(m);
        if (it == modes.end()) return false;
        in.mode = it->second;
        return true;
      });
      finish(false, false, false);
      no_pair();
      need_type(in, floats);
      if (in.mode == Mode::none) refuse(in, "testp needs what to test (.finite, .number, ...)");
      dest_and_values(in, 1);
      if (!is_pred_reg(in.args[0])) refuse(in, "testp writes a predicate");
      return;
    }
    if (base == "setp" || base == "set") {
      in.op = base == "setp" ? Op::setp : Op::set;
      bool have_cmp = false;
      take_rest([&](const std::string& m) {
        if (const auto c = comparison(m); c && !have_cmp) {
          in.cmp = *c;
          have_cmp = true;
          return true;
        }
        if (m == "and") return (in.boolop = BoolOp::and_), true;
        if (m == "or") return (in.boolop = BoolOp::or_), true;
        if (m == "xor") return (in.boolop = BoolOp::xor_), true;
        return false;
      });
      finish(false, false, false);
      if (!have_cmp) refuse(in, "needs a comparison (.eq, .lt, ...)");
      if (in.op == Op::set) {
        no_pair();
        // set.cmp.dtype.stype
        if (in.type2 == Type::none) refuse(in, "set needs a destination and a source type");
        std::swap(in.type, in.type2);  // type: the compared values', type2: the result's
        if (in.type2 != Type::u32 && in.type2 != Type::s32 && in.type2 != Type::f32) refuse(in, "set's result is .u32, .s32 or .f32");
      } else {
        no_second_type(in);
      }
      need_type(in, {Type::b16, Type::b32, Type::b64, Type::u16, Type::u32, Type::u64, Type::s16, Type::s32, Type::s64,
                     Type::f32, Type::f64, Type::f16, Type::bf16});
      const bool unsigned_only = in.cmp == Cmp::lo || in.cmp == Cmp::ls || in.cmp == Cmp::hi || in.cmp == Cmp::hs;
      const bool float_only = in.cmp >= Cmp::equ;
      if (is_float(in.type) && unsigned_only) refuse(in, "the comparisons .lo, .ls, .hi and .hs are for integers");
      if (!is_float(in.type) && float_only) refuse(in, "the unordered comparisons and .num, .nan are for floats");
      const std::size_t dests = pair ? 2 : 1;
      const std::size_t n = in.args.size();
      const bool with_c = in.boolop != BoolOp::none;
      if (n != dests + 2 + (with_c ? 1 : 0)) refuse(in, with_c ? "expected p[|q], a, b, c" : "expected p[|q], a, b");
      for (std::size_t k = 0; k < dests; ++k) {
        if (in.op == Op::setp && !(is_pred_reg(in.args[k]) || in.args[k].kind == Arg::Kind::sink))
          refuse(in, "setp writes predicates");
        if (!is_dest(in.args[k])) refuse(in, "expected a destination register");
      }
      for (std::size_t k = dests; k < n; ++k) {
        if (!is_value(in.args[k])) refuse(in, "expected a register or a literal");
      }
      if (with_c && !is_pred_reg(in.args[n - 1])) refuse(in, "the combined operand must be a predicate");
      return;
    }
    if (base == "slct") {
      simple(Op::slct);
      if (in.type2 != Type::s32 && in.type2 != Type::f32) refuse(in, "slct's selector is .s32 or .f32");
      if (in.type == Type::none || in.type == Type::pred || in.type == Type::b128 || type_bits(in.type) < 16 ||
          in.type == Type::f16x2 || in.type == Type::bf16x2 || in.type == Type::f16 || in.type == Type::bf16)
        refuse(in, "unsupported slct type");
      dest_and_values(in, 3);
      return;
    }
    if (base == "ld" || base == "ldu" || base == "st") {
      in.op = base == "st" ? Op::st : Op::ld;
      bool policy = false;
      take_rest([&](const std::string& m) {
        if (m == "v2") return (in.vec = 2), true;
        if (m == "v4") return (in.vec = 4), true;
        if (m == "v8") return (in.vec = 8), true;
        if (m == "L2::cache_hint") return policy = true;
        return false;
      });
      finish(true, true, true);
      no_pair();
      no_second_type(in);
      need_type(in, {Type::b8, Type::b16, Type::b32, Type::b64, Type::u8, Type::u16, Type::u32, Type::u64, Type::s8,
                     Type::s16, Type::s32, Type::s64, Type::f32, Type::f64, Type::f16, Type::f16x2, Type::bf16, Type::bf16x2});
      if (in.vec * type_bits(in.type) > 256) refuse(in, "a vector access of more than 32 bytes");
      if (in.sem == Sem::sc || in.sem == Sem::acq_rel) refuse(in, "a load or store is weak, volatile, relaxed, acquire or release");
      if (in.op == Op::ld && in.sem == Sem::release) refuse(in, "a load cannot be .release");
      if (in.op == Op::st && in.sem == Sem::acquire) refuse(in, "a store cannot be .acquire");
      if (in.vec > 1 && in.sem != Sem::weak) refuse(in, "vector accesses are weak");
      shape(in, policy ? 3 : 2, policy ? 3 : 2);
      const Arg& data = in.op == Op::ld ? in.args[0] : in.args[1];
      const Arg& addr = in.op == Op::ld ? in.args[1] : in.args[0];
      if (addr.kind != Arg::Kind::address) refuse(in, "expected an address [a]");
      if (in.vec > 1) {
        if (data.kind != Arg::Kind::vector || data.count != in.vec) refuse(in, fmt::format("expected a vector of {}", in.vec));
      } else if (in.op == Op::ld ? !is_dest(data) : !is_value(data)) {
        refuse(in, "expected a register");
      }
      return;
    }
    if (base == "atom" || base == "red") {
      in.op = base == "atom" ? Op::atom : Op::red;
      bool policy = false;
      take_rest([&](const std::string& m) {
        if (const auto a = atomic_operation(m); a && in.mode == Mode::none) {
          in.mode = *a;
          return true;
        }
        if (m == "noftz") return true;
        if (m == "L2::cache_hint") return policy = true;
        if (m.starts_with("v") && m.size() == 2) refuse(in, "vector atomics are not supported");
        return false;
      });
      finish(true, true, true);
      no_pair();
      no_second_type(in);
      if (in.mode == Mode::none) refuse(in, "needs an operation (.add, .cas, ...)");
      if (in.sem == Sem::volatile_ || in.sem == Sem::weak) in.sem = Sem::relaxed;
      switch (in.mode) {
        case Mode::a_add:
          need_type(in, {Type::u32, Type::s32, Type::u64, Type::s64, Type::f32, Type::f64, Type::f16, Type::f16x2,
                         Type::bf16, Type::bf16x2});
          break;
        case Mode::a_min:
        case Mode::a_max: need_type(in, {Type::u32, Type::s32, Type::u64, Type::s64}); break;
        case Mode::a_inc:
        case Mode::a_dec: need_type(in, {Type::u32}); break;
        case Mode::a_and:
        case Mode::a_or:
        case Mode::a_xor: need_type(in, {Type::b32, Type::b64}); break;
        case Mode::a_exch: need_type(in, {Type::b32, Type::b64}); break;
        default: need_type(in, {Type::b16, Type::b32, Type::b64}); break;  // cas
      }
      if (in.op == Op::red && in.mode == Mode::a_cas) refuse(in, "red has no .cas");
      const std::size_t n = (in.op == Op::atom ? 3 : 2) + (in.mode == Mode::a_cas ? 1 : 0) + (policy ? 1 : 0);
      shape(in, n, n);
      const std::size_t a = in.op == Op::atom ? 1 : 0;
      if (in.op == Op::atom && !is_dest(in.args[0])) refuse(in, "expected a destination register");
      if (in.args[a].kind != Arg::Kind::address) refuse(in, "expected an address [a]");
      for (std::size_t k = a + 1; k < n - (policy ? 1 : 0); ++k) {
        if (!is_value(in.args[k])) refuse(in, "expected a register or a literal");
      }
      return;
    }
    if (base == "cp") {
      if (parts.empty() || parts[0] != "async") refuse(in, "unknown instruction");
      std::vector<std::string> more(parts.begin() + 1, parts.end());
      if (!more.empty() && more[0] == "commit_group") {
        in.op = Op::cp_async_commit;
        if (more.size() != 1 || !in.args.empty()) refuse(in, "expected cp.async.commit_group;");
        return;
      }
      if (!more.empty() && (more[0] == "wait_group" || more[0] == "wait_all")) {
        in.op = Op::cp_async_wait;
        if (more[0] == "wait_all") in.mode = Mode::wait_all;
        if (more.size() != 1 || in.args.size() != (more[0] == "wait_all" ? 0u : 1u)) refuse(in, "expected cp.async.wait_group N; or cp.async.wait_all;");
        return;
      }
      in.op = Op::cp_async;
      bool from_global = false, to_shared = false, level = false, policy = false;
      for (const auto& m : more) {
        if (m == "ca" || m == "cg") {
          level = true;
        } else if (m == "shared" || m == "shared::cta") {
          to_shared = true;
        } else if (m == "global") {
          from_global = true;
        } else if (m == "L2::cache_hint") {
          policy = true;
        } else if (m.starts_with("L2::")) {
          // prefetch sizes
        } else {
          refuse(in, fmt::format("modifier .{} is not supported", m));
        }
      }
      if (!level || !to_shared || !from_global) refuse(in, "expected cp.async.ca or .cg, .shared.global");
      no_pair();
      shape(in, 3, policy ? 5 : 4);
      if (in.args[0].kind != Arg::Kind::address || in.args[1].kind != Arg::Kind::address) refuse(in, "expected [dst], [src]");
      for (std::size_t k = 2; k < in.args.size(); ++k) {
        if (!is_value(in.args[k])) refuse(in, "expected a size, a register or a literal");
      }
      in.has_policy = policy;
      const std::size_t sizes = in.args.size() - (policy ? 1 : 0);
      if (sizes == 4 && is_pred_reg(in.args[3])) in.ignore_src_predicate = true;
      if (sizes > 4) refuse(in, "too many operands");
      return;
    }
    if (base == "fence" || base == "membar") {
      in.op = Op::fence;
      if (base == "membar") {
        if (parts.size() != 1 || (parts[0] != "cta" && parts[0] != "gl" && parts[0] != "sys")) refuse(in, "expected membar.cta, .gl or .sys");
        in.scope = parts[0] == "cta" ? Scope::cta : parts[0] == "gl" ? Scope::gpu : Scope::sys;
      } else if (!parts.empty() && (parts[0] == "proxy" || parts[0] == "mbarrier_init")) {
        in.op = Op::nop;  // the simulator has one proxy: its copies are done when issued
      } else {
        take_rest([](const std::string&) { return false; });
        for (const auto& m : rest) {
          if (!order_modifier(in, m)) refuse(in, fmt::format("modifier .{} is not supported", m));
        }
        if (in.scope == Scope::none) refuse(in, "fence needs a scope (.cta, .gpu, .sys)");
      }
      shape(in, 0, 0);
      return;
    }
    if (base == "prefetch" || base == "prefetchu" || base == "discard" || base == "applypriority") {
      in.op = Op::prefetch;  // hints only: the simulator has no caches
      shape(in, 1, 2);
      if (in.args[0].kind != Arg::Kind::address) refuse(in, "expected an address [a]");
      return;
    }
    if (base == "bar" || base == "barrier") {
      std::vector<std::string> more;
      for (const auto& m : parts) {
        if (m != "cta" && m != "aligned") more.push_back(m);
      }
      if (!more.empty() && more[0] == "warp") {
        in.op = Op::bar_warp_sync;
        if (more.size() != 2 || more[1] != "sync") refuse(in, "expected bar.warp.sync membermask;");
        shape(in, 1, 1);
        if (!is_value(in.args[0])) refuse(in, "expected the member mask");
        return;
      }
      if (more.empty()) refuse(in, "expected .sync, .arrive or .red");
      if (more[0] == "arrive") refuse(in, "bar.arrive (producer-consumer named barriers) is not supported by the simulator");
      if (more[0] == "sync" && more.size() == 1) {
        in.op = Op::bar_sync;
        shape(in, 1, 2);
        for (const Arg& a : in.args) {
          if (!is_value(a)) refuse(in, "expected a barrier number and a thread count");
        }
        return;
      }
      if (more[0] == "red" && more.size() == 3) {
        in.op = Op::bar_red;
        if (more[1] == "popc" && more[2] == "u32") {
          in.mode = Mode::popc;
        } else if ((more[1] == "and" || more[1] == "or") && more[2] == "pred") {
          in.mode = more[1] == "and" ? Mode::a_and : Mode::a_or;
        } else {
          refuse(in, "expected bar.red.popc.u32, bar.red.and.pred or bar.red.or.pred");
        }
        shape(in, 3, 4);
        if (!is_dest(in.args[0]) || !is_pred_reg(in.args.back())) refuse(in, "expected d, a[, b], {!}c");
        return;
      }
      refuse(in, "unsupported barrier form");
    }
    if (base == "shfl") {
      in.op = Op::shfl;
      bool sync = false;
      take_rest([&](const std::string& m) {
        if (m == "sync") return sync = true;
        static const std::map<std::string_view, Mode> modes = {
            {"up", Mode::up}, {"down", Mode::down}, {"bfly", Mode::bfly}, {"idx", Mode::idx}};
        const auto it = modes.find(m);
        if (it == modes.end()) return false;
        in.mode = it->second;
        return true;
      });
      finish(false, false, false);
      if (!sync) refuse(in, "shfl without .sync is not supported from sm_70 on: use shfl.sync");
      if (in.mode == Mode::none) refuse(in, "needs .up, .down, .bfly or .idx");
      need_type(in, {Type::b32});
      const std::size_t d = pair ? 2 : 1;
      shape(in, d + 4, d + 4);
      if (!is_dest(in.args[0]) || (pair && !(is_pred_reg(in.args[1]) || in.args[1].kind == Arg::Kind::sink)))
        refuse(in, "expected d[|p]");
      for (std::size_t k = d; k < in.args.size(); ++k) {
        if (!is_value(in.args[k])) refuse(in, "expected a register or a literal");
      }
      return;
    }
    if (base == "vote") {
      in.op = Op::vote;
      bool sync = false;
      take_rest([&](const std::string& m) {
        if (m == "sync") return sync = true;
        if (m == "all") return (in.mode = Mode::all), true;
        if (m == "any") return (in.mode = Mode::any), true;
        if (m == "uni") return (in.mode = Mode::uni), true;
        if (m == "ballot") return (in.mode = Mode::ballot), true;
        return false;
      });
      finish(false, false, false);
      no_pair();
      if (!sync) refuse(in, "vote without .sync is not supported from sm_70 on: use vote.sync");
      if (in.mode == Mode::none) refuse(in, "needs .all, .any, .uni or .ballot");
      need_type(in, {in.mode == Mode::ballot ? Type::b32 : Type::pred});
      shape(in, 3, 3);
      if (!is_dest(in.args[0]) || !is_pred_reg(in.args[1]) || !is_value(in.args[2])) refuse(in, "expected d, {!}p, membermask");
      return;
    }
    if (base == "match") {
      in.op = Op::match;
      bool sync = false;
      take_rest([&](const std::string& m) {
        if (m == "sync") return sync = true;
        if (m == "any") return (in.mode = Mode::any), true;
        if (m == "all") return (in.mode = Mode::all), true;
        return false;
      });
      finish(false, false, false);
      if (!sync || in.mode == Mode::none) refuse(in, "expected match.any.sync or match.all.sync");
      if (pair && in.mode != Mode::all) refuse(in, "only match.all has a predicate output");
      need_type(in, {Type::b32, Type::b64});
      const std::size_t d = pair ? 2 : 1;
      shape(in, d + 2, d + 2);
      if (!is_dest(in.args[0]) || !is_value(in.args[d]) || !is_value(in.args[d + 1])) refuse(in, "expected d[|p], a, membermask");
      return;
    }
    if (base == "activemask") {
      simple(Op::activemask);
      need_type(in, {Type::b32});
      shape(in, 1, 1);
      if (!is_dest(in.args[0])) refuse(in, "expected a register");
      return;
    }
    if (base == "redux") {
      in.op = Op::redux;
      bool sync = false;
      take_rest([&](const std::string& m) {
        if (m == "sync") return sync = true;
        if (const auto a = atomic_operation(m); a && in.mode == Mode::none) {
          in.mode = *a;
          return true;
        }
        return false;
      });
      finish(false, false, false);
      no_pair();
      if (!sync) refuse(in, "expected redux.sync");
      if (in.mode == Mode::a_add || in.mode == Mode::a_min || in.mode == Mode::a_max) {
        need_type(in, {Type::u32, Type::s32});
      } else if (in.mode == Mode::a_and || in.mode == Mode::a_or || in.mode == Mode::a_xor) {
        need_type(in, {Type::b32});
      } else {
        refuse(in, "expected .add, .min, .max, .and, .or or .xor");
      }
      dest_and_values(in, 2);
      return;
    }
    if (base == "elect") {
      in.op = Op::elect;
      if (parts.size() != 1 || parts[0] != "sync") refuse(in, "expected elect.sync d|p, membermask");
      if (!pair) refuse(in, "expected elect.sync d|p, membermask");
      shape(in, 3, 3);
      if (!is_dest(in.args[0]) || !(is_pred_reg(in.args[1]) || in.args[1].kind == Arg::Kind::sink) || !is_value(in.args[2]))
        refuse(in, "expected elect.sync d|p, membermask");
      return;
    }
    if (base == "bra") {
      in.op = Op::bra;
      for (const auto& m : parts) {
        if (m != "uni") refuse(in, fmt::format("modifier .{} is not supported", m));
      }
      no_pair();
      shape(in, 1, 1);
      if (in.args[0].kind != Arg::Kind::label) refuse(in, "expected a label");
      pending_labels_.back().first = 0;
      return;
    }
    if (base == "nanosleep") {
      simple(Op::nanosleep);
      need_type(in, {Type::u32});
      shape(in, 1, 1);
      if (!is_value(in.args[0])) refuse(in, "expected the time in nanoseconds");
      return;
    }
    if (base == "trap" || base == "brkpt") {
      simple(base == "trap" ? Op::trap : Op::brkpt);
      shape(in, 0, 0);
      return;
    }
    if (base == "pmevent" || base == "griddepcontrol" || base == "setmaxnreg") {
      // Performance-monitor events, programmatic dependent launch (a stream's launches run in order
      // here anyway) and register reallocation: nothing to do.
      in.op = Op::nop;
      return;
    }
    refuse(in, fmt::format("`{}` is not a PTX instruction the simulator supports", base));
  }

  Program& p_;
  std::string_view text_;
  bool extended_;
  std::vector<OperandSpec> specs_;
  std::vector<Token> t_;
  std::size_t i_ = 0;
  std::vector<std::map<std::string, std::uint16_t>> scopes_;
  std::map<std::string, std::uint32_t> labels_;
  std::vector<Fixup> fixups_;
  std::vector<std::pair<std::size_t, std::string>> pending_labels_;
  int current_line_ = 1;
};

}  // namespace

const char* type_name(Type t) {
  static const char* names[] = {"none", "pred", "b8",  "b16", "b32",   "b64",  "b128",   "u8",   "u16", "u32", "u64",
                                "s8",   "s16",  "s32", "s64", "f16",   "f16x2", "bf16",  "bf16x2", "tf32", "f32", "f64"};
  return names[static_cast<int>(t)];
}

std::string instruction_context(const Program& p, const Instr& in) {
  return fmt::format("inline PTX at {}, `{}`", p.site, p.texts[in.text]);
}

const char* program_refusal(const Program& program) { return program.error.empty() ? nullptr : program.error.c_str(); }

namespace {

// Parses into `p`; the reason for a refusal, without the statement's site, or empty.
std::string parse_into(Program& p, const char* text, const char* operands) {
  try {
    Parser(p, text == nullptr ? "" : text, operands != nullptr,
           parse_operand_specs(operands == nullptr ? std::string_view() : std::string_view(operands)))
        .run();
  } catch (const Refusal& r) {
    return r.message;
  } catch (const std::exception& e) {
    return fmt::format("the statement could not be parsed: {}", e.what());
  }
  return {};
}

}  // namespace

const Program& parse_program(const char* text, const char* operands, const std::source_location& where) {
  // One program per asm statement, kept for the life of the process: the statement's call site holds a
  // reference in a function-local static. The registry owns them, so that a caller which parses the same
  // text again (a test of refusals) holds nothing that the leak checker would call lost. The registry is
  // never destroyed, since kernels on other threads may still run asm statements while the process exits.
  static std::mutex registry_mutex;
  static auto* registry = new std::vector<std::unique_ptr<Program>>;
  Program* p = nullptr;
  {
    const std::lock_guard<std::mutex> lock(registry_mutex);
    p = registry->emplace_back(std::make_unique<Program>()).get();
  }
  p->where = where;
  p->site = fmt::format("{}:{}", where.file_name(), where.line());
  if (std::string why = parse_into(*p, text, operands); !why.empty()) {
    p->error = fmt::format("inline PTX at {}: {}", p->site, why);
  }
  return *p;
}

std::string statement_refusal(const char* text, const char* operands) {
  Program p;
  return parse_into(p, text, operands);
}

}  // namespace gpulab::sim::ptx
