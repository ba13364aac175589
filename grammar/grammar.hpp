// The PEGTL grammar of Humus (LANGUAGE.md sections 1-6): rules only.
//
// Conventions, in the manner of PEGTL's lua53.hpp:
//
//  * Padding is internal, never external: a rule starts at its first token
//    and ends right after its last one; the whitespace and comments *between*
//    tokens are written out as `sp` inside the rules.  So every rule begins on
//    a real character, which gives each AST node the position of its first
//    character, and lets `call` demand that '(' follows the callee directly
//    (`f(x)` is a call, `f (x)` is `f` followed by `(x)`).
//  * A keyword is its upper-case word not followed by an identifier
//    character (`IF` is a keyword, `IFFY` and `IF'` are identifiers).  An
//    identifier is any run of identifier characters that is not a keyword and
//    not `_` or `?` alone.
//  * `must<x>` marks each point where the parser commits.  Each `x` is a rule
//    of its own, named after what is expected there, so that errors.hpp can
//    give every one of them a message a person can act on.  Rules with a
//    name like `foo_body : seq< expr >` only exist to carry such a message.
//  * Sequences are iterative (`star`), never recursive per element: a tuple
//    of a million elements, a long string or a long program use no stack.
//    Recursion happens only through brackets and keyword constructs, each of
//    which is counted by the driver's nesting limit (see errors.hpp,
//    `opens_scope`).
//  * ';' is reserved: `sp` raises an error when it meets one, which catches
//    it wherever it appears between tokens.
#pragma once

#include <tao/pegtl.hpp>

namespace humus::grammar {

using namespace tao::pegtl;

// clang-format off

// ------------------------------------------------------------ lexical (§1)

struct semicolon_reserved : one< ';' > {};                  // error point only
struct blank : one< ' ', '\t', '\r', '\n' > {};
// '#' followed by whitespace, another '#' or the end of the input starts a
// comment (`## heading` is one, as in humus_js and uFork).
struct comment : seq< one< '#' >, sor< at< blank >, at< one< '#' > >, eof >, until< eolf > > {};
struct sp : star< sor< blank, comment, seq< at< one< ';' > >, raise< semicolon_reserved > > > > {};

struct lambda_utf8 : string< '\xCE', '\xBB' > {};           // λ
// A byte that may be part of an identifier: not whitespace, punctuation,
// '"', a control character, or the first byte of λ.
struct ident_char : seq< not_at< lambda_utf8 >, not_at< ranges< '\x00', '\x1F', '\x7F', '\x7F' > >,
                         not_one< ' ', '\t', '\r', '\n', '#', '$', '(', ')', ',', '.', ':', ';',
                                  '=', '[', '\\', ']', '"' > > {};
// ... but it must not start a number ('7', '-7') or a character literal.
struct ident_first : seq< not_at< digit >, not_at< one< '\'' > >, not_at< one< '-' >, digit >, ident_char > {};
struct ident_run : seq< ident_first, star< ident_char > > {};

template< typename Word > struct keyword_t : seq< Word, not_at< ident_char > > {};
struct kw_let    : keyword_t< TAO_PEGTL_STRING( "LET" ) > {};
struct kw_def    : keyword_t< TAO_PEGTL_STRING( "DEF" ) > {};
struct kw_as     : keyword_t< TAO_PEGTL_STRING( "AS" ) > {};
struct kw_in     : keyword_t< TAO_PEGTL_STRING( "IN" ) > {};
struct kw_if     : keyword_t< TAO_PEGTL_STRING( "IF" ) > {};
struct kw_elif   : keyword_t< TAO_PEGTL_STRING( "ELIF" ) > {};
struct kw_else   : keyword_t< TAO_PEGTL_STRING( "ELSE" ) > {};
struct kw_case   : keyword_t< TAO_PEGTL_STRING( "CASE" ) > {};
struct kw_of     : keyword_t< TAO_PEGTL_STRING( "OF" ) > {};
struct kw_end    : keyword_t< TAO_PEGTL_STRING( "END" ) > {};
struct kw_send   : keyword_t< TAO_PEGTL_STRING( "SEND" ) > {};
struct kw_to     : keyword_t< TAO_PEGTL_STRING( "TO" ) > {};
struct kw_after  : keyword_t< TAO_PEGTL_STRING( "AFTER" ) > {};
struct kw_create : keyword_t< TAO_PEGTL_STRING( "CREATE" ) > {};
struct kw_with   : keyword_t< TAO_PEGTL_STRING( "WITH" ) > {};
struct kw_become : keyword_t< TAO_PEGTL_STRING( "BECOME" ) > {};
struct kw_throw  : keyword_t< TAO_PEGTL_STRING( "THROW" ) > {};
struct kw_new    : keyword_t< TAO_PEGTL_STRING( "NEW" ) > {};
struct kw_self   : keyword_t< TAO_PEGTL_STRING( "SELF" ) > {};
struct kw_true   : keyword_t< TAO_PEGTL_STRING( "TRUE" ) > {};
struct kw_false  : keyword_t< TAO_PEGTL_STRING( "FALSE" ) > {};
struct kw_nil    : keyword_t< TAO_PEGTL_STRING( "NIL" ) > {};
struct kw_now    : keyword_t< TAO_PEGTL_STRING( "NOW" ) > {};
struct kw_import : keyword_t< TAO_PEGTL_STRING( "IMPORT" ) > {};
struct keyword : sor< kw_let, kw_def, kw_as, kw_in, kw_if, kw_elif, kw_else, kw_case, kw_of, kw_end,
                      kw_send, kw_to, kw_after, kw_create, kw_with, kw_become, kw_throw, kw_new,
                      kw_self, kw_true, kw_false, kw_nil, kw_now, kw_import > {};

struct underscore : seq< one< '_' >, not_at< ident_char > > {};   // _ alone
struct question : seq< one< '?' >, not_at< ident_char > > {};     // ? alone
// ident := a run of identifier characters that is not a keyword, '_' or '?'
struct ident : seq< not_at< keyword >, not_at< underscore >, not_at< question >, ident_run > {};

// integer := '-'? digits [ '#' alnum+ ]   (radix and digits are checked by the driver)
struct radix_digits : plus< alnum > {};
struct number_end : not_at< ident_char > {};
struct integer : seq< opt< one< '-' > >, plus< digit >, opt< one< '#' >, must< radix_digits > >, must< number_end > > {};

// escape := '\' ( n t r b ' " \ )
struct escape_code : one< 'n', 't', 'r', 'b', '\'', '"', '\\' > {};
struct escape : seq< one< '\\' >, must< escape_code > > {};

// char := "'" ( escape | code point other than ' \ newline ) "'"
struct char_not_empty : not_at< one< '\'' > > {};
struct char_body : sor< escape, utf8::not_one< '\'', '\\', '\n', '\r' > > {};
struct char_close : one< '\'' > {};
struct char_lit : seq< one< '\'' >, must< char_not_empty >, must< char_body >, must< char_close > > {};

// string := '"' { escape | code point other than " \ } '"'   (may span lines)
struct string_char : sor< escape, utf8::not_one< '"', '\\' > > {};
struct string_close : one< '"' > {};
struct string_lit : seq< one< '"' >, star< string_char >, must< string_close > > {};

// symbol := '#' name   (a keyword after '#' is accepted: #END is a symbol)
struct symbol_name : ident_run {};
struct symbol : seq< one< '#' >, must< symbol_name > > {};

struct lambda_sign : sor< one< '\\' >, lambda_utf8 > {};

// ------------------------------------------------------ expressions (§3)

struct expr;
struct ptrn;
struct eqtn;
struct stmt;
struct term;

// Constants that are the same in expressions and patterns.
struct c_self : kw_self {};
struct c_now : kw_now {};
struct c_true : kw_true {};
struct c_false : kw_false {};
struct c_nil : kw_nil {};
struct c_undefined : question {};
// '(' ')' is NIL, in expressions, patterns and parameter lists
struct nil_parens : seq< one< '(' >, sp, one< ')' > > {};

// ('\' | 'λ') ptrn '.' expr -- the body extends as far as an expression can
struct lambda_param : seq< ptrn > {};
struct lambda_dot : one< '.' > {};
struct lambda_body : seq< expr > {};
struct lambda : seq< lambda_sign, sp, must< lambda_param >, sp, must< lambda_dot >, sp, must< lambda_body > > {};

// '[' { stmt } ']'
struct block_close : one< ']' > {};
struct block : seq< one< '[' >, sp, star< stmt, sp >, must< block_close > > {};

// const := integer | char | string | '#' ident | lambda | block | SELF | NOW | ? | TRUE | FALSE | NIL
struct constant : sor< integer, char_lit, string_lit, symbol, lambda, block,
                       c_self, c_now, c_undefined, c_true, c_false, c_nil > {};

// call := '(' [ expr ] ')'   -- directly after the callee
struct call_close : one< ')' > {};
struct call_args : seq< one< '(' >, sp, opt< expr, sp >, must< call_close > > {};

// '(' expr ')'
struct paren_inner : seq< expr > {};
struct paren_close : one< ')' > {};
struct paren_expr : seq< one< '(' >, sp, must< paren_inner >, sp, must< paren_close > > {};

struct variable : ident {};
// ident { call } | '(' expr ')' { call }
struct postfix : seq< sor< variable, paren_expr >, star< call_args > > {};

// 'NEW' term
struct new_behavior : seq< term > {};
struct new_term : seq< kw_new, sp, must< new_behavior > > {};

// '_' is a pattern only: met where a term is expected, it is an error.
struct wildcard_in_expr : underscore {};
struct misplaced_wildcard : seq< at< underscore >, raise< wildcard_in_expr > > {};

// term := 'NEW' term | const | '(' ')' | ident { call } | '(' expr ')' { call }
struct term : sor< new_term, constant, nil_parens, postfix, misplaced_wildcard > {};

// 'LET' eqtn 'IN' expr
struct let_equation : seq< eqtn > {};
struct let_in : kw_in {};
struct let_body : seq< expr > {};
struct let_expr : seq< kw_let, sp, must< let_equation >, sp, must< let_in >, sp, must< let_body > > {};

// 'IF' eqtn [':'] expr { 'ELIF' eqtn [':'] expr } [ 'ELSE' expr ]
// Compatibility extension: the optional ':' after the equation is accepted
// because the classic "Composing Actors" article writes
// `IF $msg = ($first, item, next) : [ ... ]`.
struct if_colon : seq< one< ':' >, sp > {};
struct if_condition : seq< eqtn > {};
struct if_body : seq< expr > {};
struct elif_condition : seq< eqtn > {};
struct elif_body : seq< expr > {};
struct else_body : seq< expr > {};
struct if_expr : seq< kw_if, sp, must< if_condition >, sp, opt< if_colon >, must< if_body >,
                      star< sp, kw_elif, sp, must< elif_condition >, sp, opt< if_colon >, must< elif_body > >,
                      opt< sp, kw_else, sp, must< else_body > > > {};

// 'CASE' expr 'OF' { ptrn ':' expr } 'END'
struct case_subject : seq< expr > {};
struct case_of : kw_of {};
struct case_colon : one< ':' > {};
struct case_body : seq< expr > {};
struct case_alt : seq< ptrn, sp, must< case_colon >, sp, must< case_body > > {};
struct case_end : kw_end {};
struct case_expr : seq< kw_case, sp, must< case_subject >, sp, must< case_of >, sp,
                        star< case_alt, sp >, must< case_end > > {};

struct keyword_expr : sor< let_expr, if_expr, case_expr > {};

// term [ ',' expr ], iteratively: term { ',' term } [ ',' keyword_expr ]
// (a LET, IF or CASE can only end a tuple: it extends as far as it can)
struct tuple_last : sor< keyword_expr, term > {};
struct tuple_expr : seq< term, star< sp, one< ',' >, sp, term >, opt< sp, one< ',' >, sp, must< tuple_last > > > {};

// expr := LET ... | IF ... | CASE ... | term [ ',' expr ]
struct expr : sor< keyword_expr, tuple_expr > {};

// --------------------------------------------------------- patterns (§4)

struct wildcard : underscore {};
struct bind : ident {};
// ident(...) in a pattern is almost always meant as '$ident(...)': say so
struct call_in_pattern : ident {};
struct call_as_pattern : seq< at< ident, one< '(' > >, raise< call_in_pattern > > {};
// '$' term
struct value_term : seq< term > {};
struct value_ptrn : seq< one< '$' >, sp, must< value_term > > {};
// '(' ptrn ')'
struct paren_ptrn_inner : seq< ptrn > {};
struct paren_ptrn_close : one< ')' > {};
struct paren_ptrn : seq< one< '(' >, sp, must< paren_ptrn_inner >, sp, must< paren_ptrn_close > > {};

// pterm := '_' | ident | '$' term | '(' ')' | '(' ptrn ')' | integer | char | string
//        | '#' ident | 'SELF' | '?' | 'TRUE' | 'FALSE' | 'NIL'
//        | lambda | block
// Compatibility extension: a function or block constant is accepted as a
// pattern, meaning its value (as if written with '$'), because the classic
// "Composing Actors" article writes `LET empty_queue_beh = \(cust, req).[ ... ]`.
struct pterm : sor< wildcard, value_ptrn, nil_parens, paren_ptrn, integer, char_lit, string_lit, symbol,
                    c_self, c_undefined, c_true, c_false, c_nil, lambda, block, call_as_pattern, bind > {};

// ptrn := pterm [ ',' ptrn ], iteratively
struct ptrn_element : seq< pterm > {};
struct ptrn : seq< pterm, star< sp, one< ',' >, sp, must< ptrn_element > > > {};

// -------------------------------------------------------- equations (§5)

// ident '(' ptrn ')' '=' expr  -- committed once `name (` is seen
// (whitespace before '(' is allowed here: it is unambiguous)
struct fn_name : ident {};
struct fn_param_ptrn : seq< ptrn > {};
struct fn_param_close : one< ')' > {};
struct fn_param_group : seq< one< '(' >, sp, must< fn_param_ptrn >, sp, must< fn_param_close > > {};
struct fn_param : sor< nil_parens, fn_param_group > {};
struct fn_eq : one< '=' > {};
struct fn_body : seq< expr > {};
struct function_eqtn : seq< fn_name, sp, at< one< '(' > >, fn_param, sp, must< fn_eq >, sp, must< fn_body > > {};

// ptrn '=' ptrn
struct match_eq : one< '=' > {};
struct match_rhs : seq< ptrn > {};
struct match_eqtn : seq< ptrn, sp, must< match_eq >, sp, must< match_rhs > > {};

struct eqtn : sor< function_eqtn, match_eqtn > {};

// ------------------------------------------------------- statements (§6)

// 'LET' eqtn [ 'IN' expr ]   (with IN it is an expression statement)
struct let_stmt : seq< kw_let, sp, must< let_equation >, opt< sp, kw_in, sp, must< let_body > > > {};

// 'DEF' ident '(' ptrn ')' 'AS' expr  |  'DEF' ptrn 'AS' expr
struct def_fn_as : kw_as {};
struct def_ptrn_as : kw_as {};
struct def_body : seq< expr > {};
struct def_function : seq< fn_name, sp, at< one< '(' > >, fn_param, sp, must< def_fn_as >, sp, must< def_body > > {};
struct def_pattern : seq< ptrn, sp, must< def_ptrn_as >, sp, must< def_body > > {};
struct def_head : sor< def_function, def_pattern > {};
struct def_stmt : seq< kw_def, sp, must< def_head > > {};

// 'CREATE' ident 'WITH' expr
struct create_name : ident {};
struct create_with : kw_with {};
struct create_behavior : seq< expr > {};
struct create_stmt : seq< kw_create, sp, must< create_name >, sp, must< create_with >, sp, must< create_behavior > > {};

// 'SEND' expr 'TO' expr
struct send_message : seq< expr > {};
struct send_to : kw_to {};
struct send_target : seq< expr > {};
struct send_stmt : seq< kw_send, sp, must< send_message >, sp, must< send_to >, sp, must< send_target > > {};

// 'AFTER' expr 'SEND' expr 'TO' expr
struct after_delay : seq< expr > {};
struct after_send : kw_send {};
struct after_stmt : seq< kw_after, sp, must< after_delay >, sp, must< after_send >, sp, must< send_message >,
                         sp, must< send_to >, sp, must< send_target > > {};

// 'BECOME' expr  |  'THROW' expr
struct become_value : seq< expr > {};
struct become_stmt : seq< kw_become, sp, must< become_value > > {};
struct throw_value : seq< expr > {};
struct throw_stmt : seq< kw_throw, sp, must< throw_value > > {};

// 'IMPORT' string
struct import_name : string_lit {};
struct import_stmt : seq< kw_import, sp, must< import_name > > {};

struct stmt : sor< let_stmt, def_stmt, create_stmt, send_stmt, after_stmt, become_stmt, throw_stmt,
                   import_stmt, expr > {};

// program := { stmt } eof
struct program_end : eof {};
struct program : seq< opt< utf8::bom >, sp, star< stmt, sp >, must< program_end > > {};
// The same, a piece at a time (the parser reads one statement, converts it
// and lets its parse tree go before the next: a whole file's tree at once
// cost 40 times the source): program_start, then program_next until it
// fails, then program_rest.
struct program_start : seq< opt< utf8::bom >, sp > {};
// Where a re-parse starts, at a statement's old first byte: the blanks an edit put there.
struct program_resume : sp {};
struct program_next : seq< stmt, sp > {};
struct program_rest : must< program_end > {};

// clang-format on

}  // namespace humus::grammar
