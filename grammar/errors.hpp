// Syntax error messages: one per `must<>` / `raise<>` point of grammar.hpp.
//
// A message is raised when the parser has committed to a construct and the
// next thing is not what the construct needs.  Messages say what was expected
// and, for brackets and block keywords, where the construct was opened, so a
// person can act on them ("expected ']' to close the block opened at 12:5").
// The driver (parser.cpp) fills in these placeholders:
//   {open}  line:column of the innermost open construct (see opens_scope)
//   {here}  line:column of the error
//   {token} the token at the error, quoted ('foo', ']'), or "end of input"
//   {name}  the identifier-like text at the error, unquoted
//   {char}  the code point at the error
// The driver's control class static_asserts that every rule it is asked to
// raise for has a message, and a unit test walks the grammar to check it.
#pragma once

#include "grammar/grammar.hpp"

namespace humus::grammar::errors {

// clang-format off
template< typename Rule > inline constexpr const char* message = nullptr;

// ---- lexical
template<> inline constexpr const char* message< semicolon_reserved > = "';' is reserved and not used in Humus";
template<> inline constexpr const char* message< radix_digits > = "expected the digits of the number after '#'";
template<> inline constexpr const char* message< number_end > = "unexpected {token} directly after a number";
template<> inline constexpr const char* message< escape_code > = "unknown escape sequence '\\{char}' (the escapes are \\n \\t \\r \\b \\' \\\" \\\\)";
template<> inline constexpr const char* message< char_not_empty > = "empty character literal: write one character between the quotes, as in 'a'";
template<> inline constexpr const char* message< char_body > = "unterminated character literal (opened at {open})";
template<> inline constexpr const char* message< char_close > = "expected \"'\" to close the character literal opened at {open}: it holds one character";
template<> inline constexpr const char* message< string_close > = "unterminated string (opened at {open})";
template<> inline constexpr const char* message< symbol_name > = "expected a name after '#' (a comment needs a space after '#')";

// ---- expressions
template<> inline constexpr const char* message< lambda_param > = "expected the function's parameter pattern after '\\'";
template<> inline constexpr const char* message< lambda_dot > = "expected '.' after the parameter pattern of the function opened at {open}";
template<> inline constexpr const char* message< lambda_body > = "expected an expression after '.' (the body of the function)";
template<> inline constexpr const char* message< block_close > = "expected ']' to close the block opened at {open}";
template<> inline constexpr const char* message< call_close > = "expected ')' to close the '(' opened at {open}";
template<> inline constexpr const char* message< paren_inner > = "expected an expression after '('";
template<> inline constexpr const char* message< paren_close > = "expected ')' to close the '(' opened at {open}";
template<> inline constexpr const char* message< new_behavior > = "expected a behavior after 'NEW'";
template<> inline constexpr const char* message< wildcard_in_expr > = "'_' can only be used in a pattern";
template<> inline constexpr const char* message< let_equation > = "expected an equation after 'LET', as in 'LET x = $value' or 'LET f(x) = ...'";
template<> inline constexpr const char* message< let_in > = "expected 'IN' after the equation of the LET opened at {open}";
template<> inline constexpr const char* message< let_body > = "expected an expression after 'IN'";
template<> inline constexpr const char* message< if_condition > = "expected an equation after 'IF', as in 'IF $x = 0 ...'";
template<> inline constexpr const char* message< if_body > = "expected an expression after the condition of the IF opened at {open}";
template<> inline constexpr const char* message< elif_condition > = "expected an equation after 'ELIF', as in 'ELIF $x = 0 ...'";
template<> inline constexpr const char* message< elif_body > = "expected an expression after the condition of 'ELIF'";
template<> inline constexpr const char* message< else_body > = "expected an expression after 'ELSE'";
template<> inline constexpr const char* message< case_subject > = "expected an expression after 'CASE'";
template<> inline constexpr const char* message< case_of > = "expected 'OF' after the subject of the CASE opened at {open}";
template<> inline constexpr const char* message< case_colon > = "expected ':' after the pattern of an alternative of the CASE opened at {open} (or 'END', if the CASE ends here)";
template<> inline constexpr const char* message< case_body > = "expected an expression after ':' in an alternative of the CASE opened at {open}";
template<> inline constexpr const char* message< case_end > = "this CASE has no 'END' (expected at {here}, found {token})";
template<> inline constexpr const char* message< tuple_last > = "expected an expression after ','";

// ---- patterns
template<> inline constexpr const char* message< call_in_pattern > = "a call cannot be used as a pattern: write '${name}(...)' to match the value the call returns";
template<> inline constexpr const char* message< value_term > = "expected a term after '$', as in '$x' or '$f(y)'";
template<> inline constexpr const char* message< paren_ptrn_inner > = "expected a pattern after '('";
template<> inline constexpr const char* message< paren_ptrn_close > = "expected ')' to close the '(' opened at {open}";
template<> inline constexpr const char* message< ptrn_element > = "expected a pattern after ','";

// ---- equations
template<> inline constexpr const char* message< fn_param_ptrn > = "expected a parameter pattern after '('";
template<> inline constexpr const char* message< fn_param_close > = "expected ')' to close the parameter list opened at {open}";
template<> inline constexpr const char* message< fn_eq > = "expected '=' after the parameter list of the function";
template<> inline constexpr const char* message< fn_body > = "expected an expression after '=' (the body of the function)";
template<> inline constexpr const char* message< match_eq > = "expected '=' after the pattern of the equation";
template<> inline constexpr const char* message< match_rhs > = "expected a pattern after '=' (to use the value of an expression, write '$' before it: $(...))";

// ---- statements
template<> inline constexpr const char* message< def_head > = "expected a name or a pattern after 'DEF'";
template<> inline constexpr const char* message< def_fn_as > = "expected 'AS' after the parameter list of DEF";
template<> inline constexpr const char* message< def_ptrn_as > = "expected 'AS' after the pattern of DEF";
template<> inline constexpr const char* message< def_body > = "expected an expression after 'AS'";
template<> inline constexpr const char* message< create_name > = "expected the new actor's name after 'CREATE'";
template<> inline constexpr const char* message< create_with > = "expected 'WITH' after the actor's name in CREATE";
template<> inline constexpr const char* message< create_behavior > = "expected a behavior expression after 'WITH'";
template<> inline constexpr const char* message< send_message > = "expected the message (an expression) after 'SEND'";
template<> inline constexpr const char* message< send_to > = "expected 'TO' after the message of SEND";
template<> inline constexpr const char* message< send_target > = "expected the target actor (an expression) after 'TO'";
template<> inline constexpr const char* message< after_delay > = "expected the delay (an expression) after 'AFTER'";
template<> inline constexpr const char* message< after_send > = "expected 'SEND' after the delay of AFTER";
template<> inline constexpr const char* message< become_value > = "expected an expression after 'BECOME'";
template<> inline constexpr const char* message< throw_value > = "expected an expression after 'THROW'";
template<> inline constexpr const char* message< import_name > = "expected the module's name as a string after 'IMPORT', as in IMPORT \"list\"";
template<> inline constexpr const char* message< program_end > = "unexpected {token}";

// Error points where a name is expected: if a keyword stands there, the
// message is "'IF' is a keyword and cannot be used as a name" instead.
template< typename Rule > inline constexpr bool expects_name = false;
template<> inline constexpr bool expects_name< let_equation > = true;
template<> inline constexpr bool expects_name< if_condition > = true;
template<> inline constexpr bool expects_name< elif_condition > = true;
template<> inline constexpr bool expects_name< lambda_param > = true;
template<> inline constexpr bool expects_name< paren_ptrn_inner > = true;
template<> inline constexpr bool expects_name< ptrn_element > = true;
template<> inline constexpr bool expects_name< fn_param_ptrn > = true;
template<> inline constexpr bool expects_name< match_rhs > = true;
template<> inline constexpr bool expects_name< def_head > = true;
template<> inline constexpr bool expects_name< create_name > = true;
template<> inline constexpr bool expects_name< symbol_name > = false;

// Errors reported where the innermost open construct began rather than where
// the parse stopped: the place to fix is the CASE that lacks its END, not
// the statement after it.
template< typename Rule > inline constexpr bool reported_at_open = false;
template<> inline constexpr bool reported_at_open< case_end > = true;

// Rules that open a construct: their start position is what {open} refers
// to, and their nesting is what the driver's depth limit counts.  Every
// recursion of the grammar passes through one of them.
template< typename Rule > inline constexpr bool opens_scope = false;
template<> inline constexpr bool opens_scope< call_args > = true;
template<> inline constexpr bool opens_scope< paren_expr > = true;
template<> inline constexpr bool opens_scope< paren_ptrn > = true;
template<> inline constexpr bool opens_scope< fn_param_group > = true;
template<> inline constexpr bool opens_scope< block > = true;
template<> inline constexpr bool opens_scope< lambda > = true;
template<> inline constexpr bool opens_scope< new_term > = true;
template<> inline constexpr bool opens_scope< let_expr > = true;
template<> inline constexpr bool opens_scope< let_stmt > = true;
template<> inline constexpr bool opens_scope< if_expr > = true;
template<> inline constexpr bool opens_scope< case_expr > = true;
template<> inline constexpr bool opens_scope< value_ptrn > = true;
template<> inline constexpr bool opens_scope< char_lit > = true;
template<> inline constexpr bool opens_scope< string_lit > = true;
template<> inline constexpr bool opens_scope< import_name > = true;
// clang-format on

}  // namespace humus::grammar::errors
