// A user's reduction checked (validate), laid out (state_layout) and turned into the kernels'
// definitions (user_definitions); see user_reduction.hpp.
#include "ops/user_reduction.hpp"

#include "core/format.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstring>
#include <numeric>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

#include "core/text.hpp"
#include "core/type_table.hpp"
#include "ops/operators.hpp"

namespace rdx {

Reduction Reduction::simple(Type acc, std::string combine, std::string identity, std::string map) {
  Reduction r;
  r.fields.push_back({"value", acc, std::move(identity), std::move(map), std::move(combine)});
  return r;
}

Reduction Reduction::transform(Op op, Type type, std::string map) {
  const Type acc = detail::computed_type_of(type);  // f16, bf16: their values' f32
  if (is_index_op(op))
    throw ArgumentError(detail::format("{} takes no map (its state has an index)", rdx::name(op)));
  if (!op_allows(op, acc))
    throw ArgumentError(detail::format("{} is defined for integer types only, not {}",
                                       rdx::name(op), rdx::name(acc)));
  const detail::TypeRow& t = detail::type_row(acc);
  std::string combine;
  if (detail::marked_states(op, acc)) {
    combine = "a * b";  // the mapped values' product (the input-infinity mark is the built-in's)
  } else {
    // The built-in operator's OpenCL C (operators.hpp), its macro names spelled out.
    combine = detail::cl_combine(op, acc);
    auto replace = [&](std::string_view from, std::string_view to) {
      for (std::size_t p = combine.find(from); p != std::string::npos;
           p = combine.find(from, p + to.size()))
        combine.replace(p, from.size(), to);
    };
    replace("UMUL", t.size == 8 ? "ulong" : "uint");
    replace("UACC", t.cl_unsigned);
    replace("(ACC)", detail::format("({})", t.cl_name));
  }
  Reduction r = simple(acc, std::move(combine), detail::cl_identity(op, acc), std::move(map));
  r.name = std::string(rdx::name(op));
  return r;
}

}  // namespace rdx

namespace rdx::detail {
namespace {

// OpenCL C's scalar type names: an expression uses them in casts only.
constexpr std::array kTypeNames = {"bool", "char", "uchar", "short", "ushort", "int",
                                   "uint", "long", "ulong", "float", "double", "size_t"};

// Built-in functions: an expression calls them.
constexpr std::array kFunctionNames = {
    // math
    "acos", "acosh", "acospi", "asin", "asinh", "asinpi", "atan", "atan2", "atanh", "atanpi",
    "atan2pi", "cbrt", "ceil", "copysign", "cos", "cosh", "cospi", "erfc", "erf", "exp", "exp2",
    "exp10", "expm1", "fabs", "fdim", "floor", "fma", "fmax", "fmin", "fmod", "hypot", "ilogb",
    "ldexp", "lgamma", "log", "log2", "log10", "log1p", "logb", "mad", "maxmag", "minmag",
    "nextafter", "pow", "pown", "powr", "remainder", "rint", "rootn", "round", "rsqrt", "sin",
    "sinh", "sinpi", "sqrt", "tan", "tanh", "tanpi", "tgamma", "trunc",
    // integer and common
    "abs", "abs_diff", "add_sat", "hadd", "rhadd", "clamp", "clz", "mad_hi", "mad_sat", "max",
    "min", "mul_hi", "rotate", "sub_sat", "upsample", "popcount", "mad24", "mul24", "degrees",
    "radians", "sign", "mix", "step", "smoothstep",
    // relational
    "isequal", "isnotequal", "isgreater", "isgreaterequal", "isless", "islessequal",
    "islessgreater", "isfinite", "isinf", "isnan", "isnormal", "isordered", "isunordered",
    "signbit", "bitselect", "select"};

// Built-in constants.
constexpr std::array kConstantNames = {
    "true",        "false",      "INFINITY",     "NAN",         "HUGE_VAL",   "HUGE_VALF",
    "MAXFLOAT",    "FLT_MAX",    "FLT_MIN",      "FLT_EPSILON", "DBL_MAX",    "DBL_MIN",
    "DBL_EPSILON", "CHAR_MAX",   "CHAR_MIN",     "SCHAR_MAX",   "SCHAR_MIN",  "UCHAR_MAX",
    "SHRT_MAX",    "SHRT_MIN",   "USHRT_MAX",    "INT_MAX",     "INT_MIN",    "UINT_MAX",
    "LONG_MAX",    "LONG_MIN",   "ULONG_MAX",    "M_E",         "M_LOG2E",    "M_LOG10E",
    "M_LN2",       "M_LN10",     "M_PI",         "M_PI_2",      "M_PI_4",     "M_1_PI",
    "M_2_PI",      "M_2_SQRTPI", "M_SQRT2",      "M_SQRT1_2",   "M_E_F",      "M_LOG2E_F",
    "M_LOG10E_F",  "M_LN2_F",    "M_LN10_F",     "M_PI_F",      "M_PI_2_F",   "M_PI_4_F",
    "M_1_PI_F",    "M_2_PI_F",   "M_2_SQRTPI_F", "M_SQRT2_F",   "M_SQRT1_2_F"};

// OpenCL C keywords: never field names.
constexpr std::array kKeywords = {
    "global",     "local",    "constant", "private",  "kernel", "read_only", "write_only",
    "read_write", "restrict", "volatile", "const",    "inline", "static",    "extern",
    "return",     "if",       "else",     "for",      "while",  "do",        "switch",
    "case",       "default",  "break",    "continue", "goto",   "sizeof",    "struct",
    "union",      "enum",     "typedef",  "void",     "signed", "unsigned",  "auto",
    "register",   "half"};

template <std::size_t N>
bool listed(const std::array<const char*, N>& list, std::string_view id) {
  for (std::string_view k : list)
    if (id == k) return true;
  return false;
}

bool is_keyword(std::string_view id) {
  return listed(kKeywords, id);
}

bool is_type_name(std::string_view id) {
  return listed(kTypeNames, id);
}

bool is_function(std::string_view id) {
  if (listed(kFunctionNames, id)) return true;
  // native_sqrt, half_exp: the math functions' fast forms
  for (std::string_view prefix : {"native_", "half_"})
    if (id.starts_with(prefix)) return is_function(id.substr(prefix.size()));
  // convert_float, convert_int_sat_rte, as_uint: conversions and reinterpretations
  for (std::string_view prefix : {"convert_", "as_"}) {
    if (!id.starts_with(prefix)) continue;
    std::string_view rest = id.substr(prefix.size());
    rest = rest.substr(0, rest.find('_'));
    for (const TypeRow& t : kTypeRows)
      if (rest == t.cl_name) return true;
  }
  return false;
}

bool is_builtin(std::string_view id) {
  return is_type_name(id) || is_function(id) || listed(kConstantNames, id);
}

bool ident_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// What an expression may name besides the built-ins.
struct Names {
  std::set<std::string> plain;   // x, i, a, b ...
  std::set<std::string> member;  // after a. or b.: the field names (several fields)
};

// Where the number that starts at e[p] ends: digits, letters (hex digits, suffixes, exponents),
// dots, signed exponents (C's preprocessing number).
std::size_t number_end(const std::string& e, std::size_t p) {
  ++p;
  while (p < e.size() && (ident_char(e[p]) || e[p] == '.' ||
                          ((e[p] == '+' || e[p] == '-') && std::strchr("eEpP", e[p - 1]) &&
                           !(e[p - 1] == 'e' && p >= 2 && e[p - 2] == 'x'))))
    ++p;
  return p;
}

// The expression as error messages quote it: a long one shortened, and every byte that is not
// printable ASCII escaped (detail::printable), so that a newline, a terminal escape or a NUL
// never reaches a message raw.
std::string quoted(const std::string& e) {
  if (e.size() <= 100) return detail::printable(e);
  return detail::format("{}... ({} characters)", detail::printable(e.substr(0, 80)), e.size());
}

[[noreturn]] void refuse(const std::string& what, const std::string& e, const std::string& why) {
  throw ArgumentError(detail::format("the {} `{}` {}", what, quoted(e), why));
}

// One token of an expression: a number, a name, a punctuator (the longest of C's that matches),
// or the end.
struct Token {
  enum Kind { Number, Name, Punct, End } kind = End;
  std::string text;
  std::size_t at = 0;  // its first character's offset
};

// The tokens of e, or refuse() for what no expression holds (statements, comments,
// preprocessor lines, string and character literals, other characters).
std::vector<Token> tokenize(const std::string& what, const std::string& e) {
  auto bad = [&](const std::string& why) { refuse(what, e, why); };
  static constexpr std::array kPunctuators = {
      "<<=", ">>=", "...", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "++", "--", "->", "+=",
      "-=",  "*=",  "/=",  "%=", "&=", "|=", "^=", "##", "+",  "-",  "*",  "/",  "%",  "<",  ">",
      "=",   "!",   "&",   "|",  "^",  "~",  "?",  ":",  ",",  "(",  ")",  "[",  "]",  "."};
  std::vector<Token> out;
  for (std::size_t p = 0; p < e.size();) {
    const char c = e[p];
    if (c == ' ' || c == '\t') {
      ++p;
      continue;
    }
    if (c == '/' && p + 1 < e.size() && (e[p + 1] == '/' || e[p + 1] == '*'))
      bad("holds a comment");
    if (std::isdigit(static_cast<unsigned char>(c)) ||
        (c == '.' && p + 1 < e.size() && std::isdigit(static_cast<unsigned char>(e[p + 1])))) {
      const std::size_t end = number_end(e, p);
      out.push_back({Token::Number, e.substr(p, end - p), p});
      p = end;
      continue;
    }
    if (ident_start(c)) {
      std::size_t end = p;
      while (end < e.size() && ident_char(e[end]))
        ++end;
      out.push_back({Token::Name, e.substr(p, end - p), p});
      p = end;
      continue;
    }
    switch (c) {
      case ';':
        refuse(what, e, "holds a ';': give one expression, not statements");
      case '{':
      case '}':
        refuse(what, e, "holds a brace: give one expression, not statements");
      case '#':
        refuse(what, e, "holds a preprocessor directive");
      case '"':
      case '\'':
        refuse(what, e,
               "holds a quote: strings and character literals are not expressions' values");
      default:
        break;
    }
    bool found = false;
    for (std::string_view punct : kPunctuators)
      if (e.compare(p, punct.size(), punct) == 0) {
        out.push_back({Token::Punct, std::string(punct), p});
        p += punct.size();
        found = true;
        break;
      }
    if (!found)
      bad(detail::format("holds the character '{}', which is not allowed in an expression",
                         detail::printable(std::string_view(&e[p], 1))));
  }
  out.push_back({Token::End, "", e.size()});
  return out;
}

// The allowed expressions, parsed by recursive descent (see validate in user_reduction.hpp):
//   expression := chain [ '?' expression ':' expression ]
//   chain      := unary { binary-operator unary }
//   unary      := ('+' | '-' | '!' | '~') unary | '(' scalar-type ')' unary | primary
//   primary    := number | name | a.FIELD | b.FIELD | function '(' [expression {',' expression}]
//   ')'
//               | '(' expression ')'
// Every binary operator is one level here: the check needs what may stand where, not C's
// precedences, and the compiler applies those to the same text.
class ExpressionParser {
 public:
  ExpressionParser(const std::string& what, const std::string& e, const Names& names)
      : what_(what), e_(e), names_(names), tokens_(tokenize(what, e)) {}

  void parse() {
    if (tokens_.front().kind == Token::End) bad("is empty");
    expression();
    const Token& t = peek();
    if (t.kind == Token::End) return;
    if (t.text == ")") bad("has a ')' without its '('");
    if (t.text == ",") bad(at(t, "uses the comma operator: give one expression"));
    if (t.text == ":") bad("has a ':' without its '?'");
    unexpected(t);
  }

 private:
  [[noreturn]] void bad(const std::string& why) const { refuse(what_, e_, why); }

  static std::string at(const Token& t, const std::string& why) {
    return detail::format("{} (character {})", why, t.at + 1);
  }

  const Token& peek() const { return tokens_[next_]; }
  const Token& take() { return tokens_[next_++]; }
  bool is(std::string_view punct) const {
    return peek().kind == Token::Punct && peek().text == punct;
  }

  // One more level of nesting (parentheses, a call, a cast, a unary operator, a ?: branch):
  // bounded so that the OpenCL compiler's recursion is.
  struct Nest {
    explicit Nest(ExpressionParser& p) : p(p) {
      if (++p.depth_ > kMaxExpressionDepth)
        p.bad(
            detail::format("nests deeper than {} levels (parentheses, calls, casts, unary "
                           "operators and ?: branches): write it as a simpler expression",
                           kMaxExpressionDepth));
    }
    ~Nest() { --p.depth_; }
    Nest(const Nest&) = delete;
    Nest& operator=(const Nest&) = delete;
    ExpressionParser& p;
  };

  // An operator (binary, unary, cast, ?:): bounded so that the compiler's syntax tree is.
  void count_operator() {
    if (++operators_ > kMaxExpressionOperators)
      bad(detail::format("has more than {} operators: write it as a simpler expression",
                         kMaxExpressionOperators));
  }

  // What cannot stand where the parser is: refused with what it is.
  [[noreturn]] void unexpected(const Token& t) const {
    if (t.kind == Token::End) bad("ends where an operand is expected");
    const std::string& s = t.text;
    if (s == "=" ||
        (s.size() >= 2 && s.back() == '=' && s != "==" && s != "!=" && s != "<=" && s != ">="))
      bad(at(t,
             detail::format("assigns ('{}'): an expression computes a value, it stores none", s)));
    if (s == "++" || s == "--")
      bad(at(t,
             detail::format("increments or decrements ('{}'): an expression stores nothing", s)));
    if (s == "[" || s == "]") bad(at(t, "indexes ('[]'): expressions have no arrays or pointers"));
    if (s == "->") bad(at(t, "uses '->': expressions have no pointers"));
    if (s == ".")
      bad(at(t, names_.member.empty()
                    ? "has a '.': only a state of several fields has members (a.NAME, b.NAME)"
                    : "has a '.' after something other than a or b"));
    if (s == "(") bad(at(t, "calls something that is not a built-in function"));
    bad(at(t, detail::format(
                  "has '{}' where {}", s,
                  t.kind == Token::Punct ? "an operand is expected" : "an operator is expected")));
  }

  void expect(std::string_view punct, const char* why) {
    if (!is(punct)) {
      if (peek().kind == Token::End) bad(why);
      if (is(",")) bad(at(peek(), "uses the comma operator: give one expression"));
      unexpected(peek());
    }
    ++next_;
  }

  void expression() {
    chain();
    if (!is("?")) return;
    count_operator();
    ++next_;
    {
      Nest n(*this);
      expression();
    }
    expect(":", "has a '?' without its ':'");
    Nest n(*this);
    expression();
  }

  static bool binary(const Token& t) {
    static constexpr std::array kBinary = {"*",  "/",  "%",  "+",  "-", "<<", ">>", "<",  ">",
                                           "<=", ">=", "==", "!=", "&", "^",  "|",  "&&", "||"};
    if (t.kind != Token::Punct) return false;
    for (std::string_view b : kBinary)
      if (t.text == b) return true;
    return false;
  }

  void chain() {
    unary();
    while (binary(peek())) {
      count_operator();
      ++next_;
      unary();
    }
  }

  void unary() {
    const Token& t = peek();
    if (t.kind == Token::Punct) {
      if (t.text == "+" || t.text == "-" || t.text == "!" || t.text == "~") {
        Nest n(*this);
        count_operator();
        ++next_;
        unary();
        return;
      }
      if (t.text == "*")
        bad(at(t, "dereferences a pointer (unary '*'): expressions are scalar values"));
      if (t.text == "&") bad(at(t, "takes an address (unary '&'): expressions are scalar values"));
      if (t.text == "&&")
        bad(at(t, "takes an address (unary '&&'): expressions are scalar values"));
      if (t.text == "(" && tokens_[next_ + 1].kind == Token::Name &&
          is_type_name(tokens_[next_ + 1].text)) {  // a cast
        Nest n(*this);
        count_operator();
        const std::string type = tokens_[next_ + 1].text;
        next_ += 2;
        if (is("*"))
          bad(at(peek(), detail::format("casts to a pointer type ('{} *'): casts are to scalar "
                                        "types only",
                                        type)));
        expect(")", "has a '(' without its ')'");
        unary();
        return;
      }
    }
    primary();
  }

  void primary() {
    const Token& t = take();
    if (t.kind == Token::Number) return after_operand();
    if (t.kind == Token::Punct) {
      if (t.text == "(") {
        Nest n(*this);
        expression();
        expect(")", "has a '(' without its ')'");
        return after_operand();
      }
      if (t.text == ")") bad("has a ')' without its '('");
      --next_;
      unexpected(t);
    }
    if (t.kind == Token::End) {
      --next_;
      unexpected(t);
    }
    const std::string& id = t.text;
    if (id == "kernel" || id.starts_with("__"))
      bad(detail::format("uses '{}', which is not allowed in an expression", id));
    if (is_type_name(id))
      bad(at(t, detail::format("uses the type '{}' outside a cast ((T)e)", id)));
    if (is_function(id) && !names_.plain.count(id)) {
      if (!is("(")) bad(at(t, detail::format("names the function '{}' without calling it", id)));
      Nest n(*this);
      ++next_;
      if (is(")")) {
        ++next_;
        return after_operand();
      }
      for (;;) {
        expression();
        if (!is(",")) break;
        ++next_;
      }
      expect(")", "has a '(' without its ')'");
      return after_operand();
    }
    if (!names_.plain.count(id) && !listed(kConstantNames, id))
      bad(detail::format(
          "uses '{}', which is not an input, a field or an OpenCL C built-in allowed "
          "here (see rdx/custom.hpp)",
          id));
    if (!names_.member.empty() && (id == "a" || id == "b")) {  // states of several fields
      if (!is("."))
        bad(at(t, detail::format("uses the state '{}' whole: name one of its fields ({}.NAME)", id,
                                 id)));
      ++next_;
      const Token& f = take();
      if (f.kind != Token::Name) bad("has a '.' without a field name");
      if (!names_.member.count(f.text))
        bad(detail::format("names a field '{}' that the state does not have", f.text));
    }
    after_operand();
  }

  // What may follow an operand: an operator, ')', ',', '?', ':' or the end; never a postfix.
  void after_operand() {
    const Token& t = peek();
    if (t.kind == Token::Punct &&
        (t.text == "++" || t.text == "--" || t.text == "[" || t.text == "->" || t.text == "." ||
         t.text == "(" || (t.text.back() == '=' && !binary(t))))
      unexpected(t);
    if (t.kind == Token::Name || t.kind == Token::Number) unexpected(t);
  }

  const std::string& what_;
  const std::string& e_;
  const Names& names_;
  std::vector<Token> tokens_;
  std::size_t next_ = 0;
  std::size_t depth_ = 0;
  std::size_t operators_ = 0;
};

void check_expression(const std::string& what, const std::string& e, const Names& names) {
  if (e.size() > kMaxExpressionChars)
    refuse(what, e,
           detail::format("is longer than {} characters: write it as a simpler expression",
                          kMaxExpressionChars));
  ExpressionParser(what, e, names).parse();
}

std::string field_label(const Reduction& r, std::size_t f) {
  return r.fields.size() == 1
             ? ""
             : detail::format(" of field '{}'", detail::printable(r.fields[f].name));
}

// The #line file names of the expressions, so that compiler messages name them.
std::string line_file(std::string_view kind, std::size_t f) {
  return detail::format("rdx-{}-{}", kind, f);
}

// The order of the fields in the struct: largest first (no interior padding), stable.
std::vector<std::size_t> struct_order(const Reduction& r) {
  std::vector<std::size_t> order(r.fields.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return size_of(r.fields[a].type) > size_of(r.fields[b].type);
  });
  return order;
}

// The vector form of one expression (has_vector_form's rules) over a field of type t, with
// casts written as reinterpretations of VW-wide vectors; nullopt where it has none. `names`: the
// inputs, or a and b.
std::optional<std::string> vector_expression(const std::string& e,
                                             const std::set<std::string>& names, const TypeRow& t,
                                             bool arithmetic) {
  static const std::set<std::string> float_functions = {"fabs", "fmin", "fmax", "sqrt"};
  static const std::set<std::string> int_functions = {"min", "max"};
  // A float literal: digits with a point and/or an exponent, and f32's f suffix.
  static const std::regex float_literal(
      R"(((\d+\.\d*|\.\d+)([eE][+-]?\d+)?|\d+[eE][+-]?\d+)[fF]?)");
  const std::set<std::string>& functions = t.is_float ? float_functions : int_functions;
  // Signed integers without `arithmetic`: no + - * / %, whose overflow is undefined behaviour
  // (the compiler may fold it differently on vectors than on scalars).
  const std::string_view operators = t.is_float ? "+-*/)," : arithmetic ? "+-*/%&|^~)," : "&|^~),";
  auto skip_blanks = [&](std::size_t q) {
    while (q < e.size() && (e[q] == ' ' || e[q] == '\t'))
      ++q;
    return q;
  };
  std::string out;
  for (std::size_t p = 0; p < e.size();) {
    const char c = e[p];
    if (c == ' ' || c == '\t') {
      out += c;
      ++p;
    } else if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
      const std::size_t end = number_end(e, p);
      const std::string num = e.substr(p, end - p);
      if (num.size() > 40) return std::nullopt;  // (and std::regex recurses per character)
      if (std::all_of(num.begin(), num.end(),
                      [](char d) { return std::isdigit(static_cast<unsigned char>(d)); })) {
        if (num.size() > 9) return std::nullopt;  // an int literal, whatever the field
      } else if (!t.is_float || !std::regex_match(num, float_literal) ||
                 (t.size == 4 && num.back() != 'f' && num.back() != 'F')) {
        return std::nullopt;  // f32 with a double literal would compute in double
      }
      out += num;
      p = end;
    } else if (ident_start(c)) {
      std::size_t end = p;
      while (end < e.size() && ident_char(e[end]))
        ++end;
      const std::string id = e.substr(p, end - p);
      if (!names.count(id) && !functions.count(id)) return std::nullopt;
      out += id == "x" ? "x0" : id;  // one load of the first input
      p = end;
    } else if (c == '(') {
      // (T)( with T the field's integer type or its unsigned twin: a reinterpretation
      std::size_t q = skip_blanks(p + 1), id_end = q;
      while (id_end < e.size() && ident_char(e[id_end]))
        ++id_end;
      const std::string id = e.substr(q, id_end - q);
      q = skip_blanks(id_end);
      if (!t.is_float && (id == t.cl_name || id == t.cl_unsigned) && q < e.size() && e[q] == ')' &&
          (q = skip_blanks(q + 1)) < e.size() && e[q] == '(') {
        // Its operand must name an input, a or b (a vector): (int)(1) is a scalar's cast.
        std::size_t close = q, depth = 0;
        for (; close < e.size(); ++close)
          if (e[close] == '(')
            ++depth;
          else if (e[close] == ')' && --depth == 0)
            break;
        bool vector_operand = false;
        for (std::size_t b = q; b < close;) {
          if (!ident_start(e[b])) {
            b = std::isdigit(static_cast<unsigned char>(e[b])) ? number_end(e, b) : b + 1;
            continue;
          }
          std::size_t end = b;
          while (end < close && ident_char(e[end]))
            ++end;
          vector_operand = vector_operand || names.count(e.substr(b, end - b));
          b = end;
        }
        if (!vector_operand) return std::nullopt;
        out += detail::format("RDX_VN_(as_{}, VW)", id);
        p = q;  // the operand's '(' follows
      } else {
        out += c;
        ++p;
      }
    } else if (operators.find(c) != std::string_view::npos) {
      out += c;
      ++p;
    } else {
      return std::nullopt;
    }
  }
  return out;
}

struct VectorForm {
  std::string map, combine;
};

std::optional<VectorForm> vector_form(const Reduction& r, std::span<const Type> inputs) {
  if (r.fields.size() != 1) return std::nullopt;
  const Field& f = r.fields[0];
  const TypeRow& t = type_row(f.type);
  if (t.size < 4) return std::nullopt;  // char and short arithmetic promotes to int on scalars
  // Inputs of the field's type, stored as they are computed (a vector of stored bits is no vector
  // of values).
  for (Type in : inputs)
    if (in != f.type || type_row(in).cl_storage != type_row(in).cl_name) return std::nullopt;
  std::set<std::string> map_names = {"x"};
  for (std::size_t k = 0; k < inputs.size(); ++k)
    map_names.insert(detail::format("x{}", k));
  // Signed integers: arithmetic only in the built-in sum's combine, which adds the unsigned
  // twins (defined wrapping); an unsigned field's arithmetic always wraps.
  const bool wraps = !t.is_float && !t.is_signed;
  const bool builtin_sum =
      f.combine == Reduction::transform(Op::Sum, f.type, "x").fields[0].combine;
  auto map = vector_expression(f.map, map_names, t, t.is_float || wraps);
  auto combine = vector_expression(f.combine, {"a", "b"}, t, t.is_float || wraps || builtin_sum);
  if (!map || !combine) return std::nullopt;
  return VectorForm{std::move(*map), std::move(*combine)};
}

}  // namespace

bool has_vector_form(const Reduction& r, std::span<const Type> inputs) {
  return vector_form(r, inputs).has_value();
}

StateLayout state_layout(const Reduction& r) {
  StateLayout l;
  l.offsets.resize(r.fields.size());
  for (std::size_t f : struct_order(r)) {
    l.offsets[f] = l.bytes;
    l.bytes += size_of(r.fields[f].type);
    l.align = std::max(l.align, size_of(r.fields[f].type));
  }
  l.bytes = (l.bytes + l.align - 1) / l.align * l.align;
  return l;
}

void validate(const Reduction& r, std::size_t inputs) {
  if (r.fields.empty() || r.fields.size() > kMaxFields)
    throw ArgumentError(
        detail::format("a reduction has 1 to {} fields, not {}", kMaxFields, r.fields.size()));
  if (inputs == 0 || inputs > kMaxInputs)
    throw ArgumentError(
        detail::format("a reduction reads 1 to {} input arrays, not {}", kMaxInputs, inputs));
  Names map_names, combine_names, identity_names;
  map_names.plain = {"x", "i"};
  for (std::size_t k = 0; k < inputs; ++k)
    map_names.plain.insert(detail::format("x{}", k));
  combine_names.plain = {"a", "b"};
  std::set<std::string> seen;
  for (const Field& f : r.fields) {
    // Lower case: the kernels' macros are upper case.
    const bool ok = !f.name.empty() && std::islower(static_cast<unsigned char>(f.name[0])) &&
                    std::all_of(f.name.begin(), f.name.end(),
                                [](char c) { return ident_char(c) && !std::isupper(c); }) &&
                    !is_keyword(f.name) && !f.name.starts_with("rdx_") &&
                    !f.name.starts_with("__") && !is_builtin(f.name) &&
                    !map_names.plain.count(f.name) && !combine_names.plain.count(f.name) &&
                    f.name.size() <= 64;
    if (!ok)
      throw ArgumentError(detail::format(
          "'{}' is not a field name: use a lower-case letter, then lower-case letters, digits "
          "and _ (not the names of inputs, a, b, i, OpenCL C keywords or built-ins, or rdx_...)",
          detail::printable(f.name)));
    if (!seen.insert(f.name).second)
      throw ArgumentError(
          detail::format("the field '{}' is named twice", detail::printable(f.name)));
    if (detail::computed_type_of(f.type) != f.type)
      throw ArgumentError(
          detail::format("the field '{}' is {}, a storage type: a field holds computed values ({})",
                         detail::printable(f.name), rdx::name(f.type),
                         rdx::name(detail::computed_type_of(f.type))));
    if (r.fields.size() > 1) combine_names.member.insert(f.name);
  }
  for (std::size_t k = 0; k < r.fields.size(); ++k) {
    const Field& f = r.fields[k];
    check_expression("identity" + field_label(r, k), f.identity, identity_names);
    check_expression("map" + field_label(r, k), f.map, map_names);
    check_expression("combine" + field_label(r, k), f.combine, combine_names);
  }
  if (!r.chunk.empty()) {
    // Statements, not an expression: the compiler checks them; only what would break the
    // function around them (a directive, a comment left open) is refused here.
    if (inputs != 1)
      throw ArgumentError(
          detail::format("a chunk form reads one input array, not {}: leave chunk empty", inputs));
    if (r.chunk.size() > kMaxExpressionChars || r.chunk.find('#') != std::string::npos ||
        r.chunk.find("/*") != std::string::npos || r.chunk.find("//") != std::string::npos)
      throw ArgumentError(detail::format(
          "chunk: at most {} characters of statements, without comments or # directives",
          kMaxExpressionChars));
  }
}

std::string user_definitions(const Reduction& r, std::span<const Type> inputs,
                             std::vector<ExpressionLine>* lines) {
  const StateLayout layout = state_layout(r);
  bool fp64 = false;
  for (Type t : inputs)
    fp64 = fp64 || t == Type::F64;
  for (const Field& f : r.fields)
    fp64 = fp64 || f.type == Type::F64;
  std::ostringstream s;
  // Not named: the name is the user's free text, and reductions that differ only in their names
  // share their programs.
  s << "/* librdx definitions (runtime/src/ops/user_reduction.cpp): a user's reduction */\n"
       "#define RDX_DEFINITIONS 1\n#define USER_STATE 1\n";
  // OP_SUM ... are left undefined (0 in #if): OP is none of them.
  s << "#define OP_USER 255\n#define OP OP_USER\n#define VALUE_OP OP_USER\n";
  // Input k: stored as T<k> (what its pointer points to), computed as T<k>_COMPUTE (what the map
  // takes), converted by T<k>_VALUE (ops/type_table.hpp's storage conversion).
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    const TypeRow& in = type_row(inputs[k]);
    s << detail::format("#define T{0} {1}\n#define T{0}_COMPUTE {2}\n#define T{0}_VALUE(x) {3}\n",
                        k, in.cl_storage, in.cl_name, in.cl_value.empty() ? "(x)" : in.cl_value);
  }
  s << "#define T T0\n";
  // Inlined whatever their size, as cl/common.h's RDX_INLINE (a call per element otherwise).
  s << "#define RDX_USER_INLINE inline __attribute__((always_inline))\n";
  if (fp64) s << "#define NEEDS_FP64 1\n#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";

  // The state: fields largest first, then zeroed padding.
  const std::size_t unpadded = [&] {
    std::size_t b = 0;
    for (const Field& f : r.fields)
      b += size_of(f.type);
    return b;
  }();
  s << "typedef struct {\n";
  for (std::size_t f : struct_order(r))
    s << detail::format("  {} {};\n", type_row(r.fields[f].type).cl_name, r.fields[f].name);
  if (layout.bytes > unpadded)
    s << detail::format("  uchar rdx_pad[{}];\n", layout.bytes - unpadded);
  s << "} rdx_state;\n";
  s << detail::format("#define ACC rdx_state\n#define ACC_BYTES {}\n", layout.bytes);
  const std::string zero_pad =
      layout.bytes > unpadded ? detail::format("  for (int k = 0; k < {}; ++k) r.rdx_pad[k] = 0;\n",
                                               layout.bytes - unpadded)
                              : "";
  // Each expression on its own line, under a #line naming it.
  int line = 0;  // a count of the generated lines that follow a #line back to this file
  auto expr = [&](std::string_view kind, std::size_t f, const std::string& text) {
    ++line;
    if (lines) {  // this line, then the #line, then the expression
      const std::string so_far = s.str();
      const auto here = static_cast<std::size_t>(std::count(so_far.begin(), so_far.end(), '\n'));
      lines->push_back({std::string(kind), f, here + 3});
    }
    return detail::format("\n#line 1 \"{}\"\n({})\n#line {} \"rdx-definitions\"\n",
                          line_file(kind, f), text, 1000 * line);
  };
  // Statements (the chunk form), under a #line naming them as expr() does.
  auto statements = [&](std::string_view kind, const std::string& text) {
    const std::string e = expr(kind, 0, "");
    const std::size_t open = e.find("\n()\n");
    return e.substr(0, open + 1) + text + e.substr(open + 3);
  };
  s << "RDX_USER_INLINE rdx_state rdx_identity(void) {\n  rdx_state r;\n" << zero_pad;
  for (std::size_t f = 0; f < r.fields.size(); ++f)
    s << detail::format("  r.{} = ({}){};\n", r.fields[f].name, type_row(r.fields[f].type).cl_name,
                        expr("identity", f, r.fields[f].identity));
  s << "  return r;\n}\n";

  s << "RDX_USER_INLINE rdx_state rdx_combine(rdx_state rdx_a, rdx_state rdx_b) {\n  rdx_state r;\n"
    << zero_pad;
  for (std::size_t f = 0; f < r.fields.size(); ++f) {
    const std::string& nm = r.fields[f].name;
    const std::string_view cl = type_row(r.fields[f].type).cl_name;
    // The lines before the expression first: expr() counts the lines written so far.
    if (r.fields.size() == 1)
      s << detail::format("  {{\n    const {0} a = rdx_a.{1}, b = rdx_b.{1};\n", cl, nm);
    else
      s << "  {\n    const rdx_state a = rdx_a, b = rdx_b;\n";
    const std::string e = expr("combine", f, r.fields[f].combine);
    s << detail::format("    r.{} = ({}){};\n  }}\n", nm, cl, e);
  }
  s << "  return r;\n}\n";

  s << "RDX_USER_INLINE rdx_state rdx_map(";
  for (std::size_t k = 0; k < inputs.size(); ++k)
    s << detail::format("T{}_COMPUTE x{}, ", k, k);
  s << "ulong i) {\n  const T0_COMPUTE x = x0;\n  rdx_state r;\n" << zero_pad;
  for (std::size_t f = 0; f < r.fields.size(); ++f)
    s << detail::format("  r.{} = ({}){};\n", r.fields[f].name, type_row(r.fields[f].type).cl_name,
                        expr("map", f, r.fields[f].map));
  s << "  (void)x;\n  (void)i;\n  return r;\n}\n";

  if (!r.chunk.empty()) {
    // cl/fast.cl's RDX_CHUNK form (the plan's "chunk", a build option): the state of RDX_CHUNK
    // elements at once.
    // RDX_INDEX(p): x[p]'s index, as the map's i (the kernel passes where its VW-vectors are).
    s << "#ifdef RDX_CHUNK\n#define USER_CHUNK 1\n"
         "#define RDX_INDEX(p) (rdx_i0 + ((ulong)(p) / rdx_vw) * rdx_step + (ulong)(p) % rdx_vw)\n"
         "RDX_USER_INLINE rdx_state rdx_chunk(const T0_COMPUTE* x, ulong rdx_i0, ulong rdx_step, "
         "uint rdx_vw) {\n  rdx_state r;\n"
      << zero_pad << "  {" << statements("chunk", r.chunk) << "  }\n  return r;\n}\n#endif\n";
  }
  s << "#define COMBINE_VALUES(a, b) rdx_combine((a), (b))\n#define IDENTITY_VALUE "
       "rdx_identity()\n";
  // How kernels read element k of every input and map it (cl/common.h's ELEM, cl/fast.cl's
  // vector lanes): the first input is the kernel's own pointer `p` (fast.cl: `in`), the others
  // the kernel's trailing parameters. `rdx_base`: the index of the chunk's first element (the
  // map's i counts from the input's start). Built with IN_OFFSET (cl/common.h), each further
  // input's element offset follows it, and USER_OPEN_INPUTS moves the input there.
  std::string params = ", ulong rdx_base", args = ", rdx_base", offset_params = params,
              offset_args = args, open, from = "rdx_map(T0_VALUE((p)[(k)]), ", load,
              lane = "rdx_map(T0_VALUE(e0_[(j)]), ";
  for (std::size_t k = 1; k < inputs.size(); ++k) {
    const std::string in = detail::format(", global const T{0}* restrict rdx_in{0}", k);
    params += in;
    offset_params += in + detail::format(", ulong rdx_off{}", k);
    args += detail::format(", rdx_in{}", k);
    offset_args += detail::format(", rdx_in{0}, rdx_off{0}", k);
    open += detail::format(" rdx_in{0} += rdx_off{0};", k);
    from += detail::format("T{0}_VALUE(rdx_in{0}[(k)]), ", k);
    lane += detail::format("T{0}_VALUE(e{0}_[(j)]), ", k);
  }
  for (std::size_t k = 0; k < inputs.size(); ++k)
    load += detail::format(" T{0} e{0}_[VW]; CAT(vstore, VW)(CAT(vload, VW)((k), {1}), 0, e{0}_);",
                           k, k == 0 ? "in" : detail::format("rdx_in{}", k));
  s << detail::format(
      "#ifdef IN_OFFSET\n#define USER_INPUT_PARAMS {}\n#define USER_INPUT_ARGS {}\n"
      "#define USER_OPEN_INPUTS{}\n#else\n#define USER_INPUT_PARAMS {}\n"
      "#define USER_INPUT_ARGS {}\n#define USER_OPEN_INPUTS\n#endif\n",
      offset_params, offset_args, open, params, args);
  // USER_MAP_FROM_AT: element k, with the map's i another index (segmented.cl's view form).
  s << detail::format("#define USER_MAP_FROM_AT(p, k, i) {}rdx_base + (ulong)(i))\n", from);
  s << "#define USER_MAP_FROM(p, k) USER_MAP_FROM_AT(p, k, k)\n";
  s << "#define USER_MAP_AT(k) USER_MAP_FROM(in, k)\n";
  s << detail::format("#define USER_LOAD_LANES(k){}\n", load);
  s << detail::format("#define USER_MAP_LANE(j, idx) {}rdx_base + (ulong)(idx))\n", lane);
  if (const auto v = vector_form(r, inputs)) {
    // cl/fast.cl's USER_VECTOR_MAP form: macros (VW is the program's), so that no function
    // passes a wide vector by value (see fast.cl).
    const Field& f = r.fields[0];
    const std::string_view cl = type_row(f.type).cl_name;
    std::string params, loads;
    for (std::size_t k = 0; k < inputs.size(); ++k) {
      params += detail::format("{}x{}", k ? ", " : "", k);
      loads += detail::format("{}USER_VLOAD((k), {})", k ? ", " : "",
                              k == 0 ? "in" : detail::format("rdx_in{}", k));
    }
    s << "#define RDX_VN__(t, w) t##w\n#define RDX_VN_(t, w) RDX_VN__(t, w)\n";
    s << detail::format("#define USER_FIELD_T {}\n#define USER_VFIELD RDX_VN_({}, VW)\n", cl, cl);
    s << detail::format("#define USER_VMAP({}) ({})\n", params, v->map);
    s << detail::format("#define USER_VCOMBINE(a, b) ({})\n", v->combine);
    s << detail::format("#define USER_VMAP_AT(k) USER_VMAP({})\n", loads);
    s << detail::format("inline {0} rdx_field_of(rdx_state s) {{\n  return s.{1};\n}}\n", cl,
                        f.name);
    s << detail::format(
        "inline rdx_state rdx_state_of({} v) {{\n  rdx_state r;\n  r.{} = v;\n  return r;\n}}\n",
        cl, f.name);
  }
  return s.str();
}

std::vector<Scalar> unpack_state(const Reduction& r, const StateLayout& layout,
                                 const unsigned char* bytes) {
  std::vector<Scalar> out;
  for (std::size_t f = 0; f < r.fields.size(); ++f)
    out.push_back(Scalar::from_bytes(r.fields[f].type, bytes + layout.offsets[f]));
  return out;
}

void rethrow_build_error(const Reduction& r, std::span<const Type> inputs,
                         const BuildError& build) {
  std::vector<ExpressionLine> lines;
  user_definitions(r, inputs, &lines);
  // The first log line that names one of the expressions' #line files, or its line.
  std::istringstream log(build.log);
  std::string text, first_kind;
  std::size_t first_field = 0;
  bool found = false;
  static const std::regex at_line(R"(:(\d{1,9}):\d+:\s*(fatal )?error)");
  for (std::string ln; std::getline(log, ln);) {
    for (const ExpressionLine& e : lines) {
      if (!found && ln.find(line_file(e.kind, e.field) + ":") != std::string::npos) {
        found = true;
        first_kind = e.kind;
        first_field = e.field;
      }
    }
    std::smatch m;
    if (!found && std::regex_search(ln, m, at_line)) {
      const std::size_t at = std::stoul(m[1].str());
      for (const ExpressionLine& e : lines)
        if (!found && e.line == at) {
          found = true;
          first_kind = e.kind;
          first_field = e.field;
        }
    }
    if (found) {
      text += ln + "\n";
      // the compiler's context lines (the source line and the caret) follow
      for (int k = 0; k < 2 && std::getline(log, ln); ++k)
        text += ln + "\n";
      break;
    }
  }
  if (!found) throw build;
  const Field& f = r.fields[first_field];
  const std::string& e = first_kind == "identity" ? f.identity
                         : first_kind == "map"    ? f.map
                         : first_kind == "chunk"  ? r.chunk
                                                  : f.combine;
  throw ExpressionError(build,
                        detail::format("{}{} of the reduction '{}'", first_kind,
                                       first_kind == "chunk" ? "" : field_label(r, first_field),
                                       detail::printable(r.name)),
                        e, text);
}

namespace {

// Whether the probe runs r's map and combine on mapped elements: not where an expression divides
// (an integer division by zero stops the process on some devices, and 0 and 1 may be outside the
// inputs the user meant).
bool maps_probed(const Reduction& r) {
  for (const Field& f : r.fields)
    if (f.map.find_first_of("/%") != std::string::npos ||
        f.combine.find_first_of("/%") != std::string::npos)
      return false;
  return true;
}

// x and y equal as values: integers bit for bit, floats by == (+0 matches -0) or both NaN.
bool same_value(const Scalar& x, const Scalar& y) {
  if (!is_float(x.type)) return x.bits == y.bits;
  const double a = x.as<double>(), b = y.as<double>();
  return a == b || (std::isnan(a) && std::isnan(b));
}

}  // namespace

std::size_t identity_probe_states(const Reduction& r) {
  return maps_probed(r) ? 2 + 4 * kIdentityProbes : 2;
}

std::string identity_probe_kernel(const Reduction& r, std::span<const Type> inputs) {
  std::string s =
      "kernel void rdx_identity_probe(global rdx_state* out, ulong v) {\n"
      "  const rdx_state e = rdx_identity();\n"
      "  out[0] = e;\n"
      "  out[1] = rdx_combine(e, e);\n";
  if (maps_probed(r)) {
    std::string args;
    for (std::size_t k = 0; k < inputs.size(); ++k)
      args += detail::format("(T{}_COMPUTE)(v + k), ", k);
    s += detail::format(
        "  for (ulong k = 0; k < {}; ++k) {{\n"
        "    const rdx_state p = rdx_map({}v + k);\n"
        "    out[2 + 4 * k] = p;\n"
        "    out[3 + 4 * k] = rdx_combine(e, p);\n"
        "    out[4 + 4 * k] = rdx_combine(p, e);\n"
        "    out[5 + 4 * k] = rdx_combine(p, p);\n"
        "  }}\n",
        kIdentityProbes, args);
  }
  return s + "}\n";
}

void check_identity(const Reduction& r, const StateLayout& layout, const unsigned char* states) {
  auto state = [&](std::size_t k) { return unpack_state(r, layout, states + k * layout.bytes); };
  const std::vector<Scalar> e = state(0);
  auto refuse_identity = [&](std::size_t f, const std::string& with, const Scalar& got,
                             const Scalar& want) {
    const Field& fd = r.fields[f];
    throw ArgumentError(detail::format(
        "the identity `{}`{} of the reduction '{}' is not neutral for its combine `{}`: "
        "combining it with {} gives {}, not {}. An identity must give back every value it is "
        "combined with (0 for a sum, 1 for a product, INFINITY for a float min, -INFINITY for a "
        "float max); librdx combines it with partial states as often as the device and the plan "
        "make it",
        quoted(fd.identity), field_label(r, f), detail::printable(r.name), quoted(fd.combine), with,
        got.to_string(), want.to_string()));
  };
  const std::vector<Scalar> ee = state(1);
  for (std::size_t f = 0; f < r.fields.size(); ++f)
    if (!same_value(ee[f], e[f]))
      refuse_identity(f, detail::format("itself ({})", e[f].to_string()), ee[f], e[f]);
  if (identity_probe_states(r) == 2) return;
  for (std::size_t k = 0; k < kIdentityProbes; ++k) {
    const std::vector<Scalar> p = state(2 + 4 * k), pp = state(5 + 4 * k);
    // A NaN state: how the combine treats NaN is the reduction's own rule.
    if (std::any_of(p.begin(), p.end(),
                    [](const Scalar& v) { return is_float(v.type) && std::isnan(v.as<double>()); }))
      continue;
    for (std::size_t order : {3, 4}) {
      const std::vector<Scalar> got = state(order + 4 * k);
      for (std::size_t f = 0; f < r.fields.size(); ++f)
        // or what the combine makes of the value with itself: combines that normalise their
        // operands (fmax(fabs(a), fabs(b))) give that back for a neutral identity
        if (!same_value(got[f], p[f]) && !same_value(got[f], pp[f]))
          refuse_identity(
              f,
              detail::format("{} (the map of the element {} at index {}{})", p[f].to_string(), k, k,
                             order == 3 ? "" : ", the identity second"),
              got[f], p[f]);
    }
  }
}

FieldSums field_sums(const Reduction& r) {
  bool any_float = false, all_sums = true;
  for (const Field& f : r.fields) {
    if (!is_float(f.type)) {
      all_sums = false;
      continue;
    }
    any_float = true;
    std::string c;  // the combine without spaces and parentheses
    for (char ch : f.combine)
      if (ch != ' ' && ch != '(' && ch != ')') c += ch;
    const std::string a = r.fields.size() == 1 ? "a" : "a." + f.name;
    const std::string b = r.fields.size() == 1 ? "b" : "b." + f.name;
    if (c != a + "+" + b && c != b + "+" + a) all_sums = false;
  }
  if (!any_float) return FieldSums::NoFloats;
  return all_sums ? FieldSums::FloatSums : FieldSums::Other;
}

}  // namespace rdx::detail
