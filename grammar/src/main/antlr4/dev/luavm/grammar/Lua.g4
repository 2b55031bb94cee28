/*
 * Lua 5.3 (reference manual, section 9), for luavm.
 *
 * Design rules (see STYLE.md item 15):
 *  - no actions, no semantic predicates;
 *  - one expression rule per precedence level, each a FLAT repetition
 *    (addExp : mulExp (('+' | '-') mulExp)*), never left-recursive alternatives, so that
 *    a 100,000-term 1+1+...+1 is one rule invocation, not 100,000 nested ones. The right
 *    associative '..' and '^' are flat too; the compiler folds them from the right.
 *    Unary chains (- - - x) and suffix chains (f()()(), a.b.c[d]:m()) are flat as well;
 *  - statements are left-factored as lparser.c does: an expression statement is a
 *    suffixed expression followed by an optional assignment tail (whether a bare
 *    suffixed expression is a call is checked by the compiler, as PUC does);
 *  - the parser builds no tree: luavm's compiler generates code from its events (a rule
 *    starts, a token is read, a rule ends), so operators are tokens of their level rather
 *    than rules of their own, and what the compiler infers from a token's position is
 *    documented beside the rule (dev.luavm.compiler.ExpressionRules, StatementRules);
 *  - the lexer rules below define the token vocabulary and document the lexical
 *    syntax; luavm lexes with the hand-written dev.luavm.compiler.LuaLexer, which
 *    produces exactly these token types and PUC's lexical error messages (long
 *    brackets of any level, escapes, numerals).
 *
 * The generated parser lives in dev.luavm.grammar and is never committed.
 */
grammar Lua;

// chunk ::= block
chunk : block EOF ;

// block ::= {stat} [retstat]
block : stat* retStat? ;

stat
    : ';'                                                        # emptyStat
    | suffixedExp assignTail?                                     # exprStat
    | '::' NAME '::'                                             # labelStat
    | 'break'                                                    # breakStat
    | 'goto' NAME                                                # gotoStat
    | 'do' block 'end'                                           # doStat
    | 'while' exp 'do' block 'end'                               # whileStat
    | 'repeat' block 'until' exp                                 # repeatStat
    | 'if' exp 'then' block elseIfPart* elsePart? 'end'          # ifStat
    | 'for' NAME '=' exp ',' exp (',' exp)? 'do' block 'end'     # numericForStat
    | 'for' nameList 'in' expList 'do' block 'end'               # genericForStat
    | 'function' funcName funcBody                               # functionStat
    | 'local' 'function' NAME funcBody                           # localFunctionStat
    | 'local' nameList ('=' expList)?                            # localStat
    ;

// assignment tail of an expression statement: {',' suffixedexp} '=' explist
assignTail : (',' suffixedExp)* '=' expList ;

elseIfPart : 'elseif' exp 'then' block ;
elsePart : 'else' block ;

// retstat ::= return [explist] [';']
retStat : 'return' expList? ';'? ;

// funcname ::= Name {'.' Name} [':' Name]
funcName : NAME ('.' NAME)* (':' NAME)? ;

nameList : NAME (',' NAME)* ;

expList : exp (',' exp)* ;

// Expressions, lowest precedence first (manual 3.4.8). Operators are tokens of their level
// (token sets, not rules of their own), so an operand costs one rule invocation per level.
exp : orExp ;
orExp : andExp ('or' andExp)* ;
andExp : cmpExp ('and' cmpExp)* ;
cmpExp : borExp (('<' | '>' | '<=' | '>=' | '~=' | '==') borExp)* ;
borExp : bxorExp ('|' bxorExp)* ;
bxorExp : bandExp ('~' bandExp)* ;
bandExp : shiftExp ('&' shiftExp)* ;
shiftExp : concatExp (('<<' | '>>') concatExp)* ;
// right associative: folded from the right by the compiler
concatExp : addExp ('..' addExp)* ;
addExp : mulExp (('+' | '-') mulExp)* ;
mulExp : unaryExp (('*' | '/' | '//' | '%') unaryExp)* ;
// unary operators bind looser than '^' on their right: -x^2 is -(x^2)
unaryExp : ('not' | '#' | '-' | '~')* powExp ;
// right associative, and the right operand of '^' may carry unary operators:
// a ^ -b ^ c is a ^ (-(b ^ c)); folded from the right by the compiler
powExp : simpleExp ('^' ('not' | '#' | '-' | '~')* simpleExp)* ;

simpleExp
    : 'nil'                 # nilExp
    | 'false'               # falseExp
    | 'true'                # trueExp
    | INT                   # intExp
    | FLOAT                 # floatExp
    | STRING                # stringExp
    | '...'                 # varargExp
    | 'function' funcBody   # functionExp
    | tableConstructor      # tableExp
    | suffixedExp           # suffixedSimpleExp
    ;

// suffixedexp ::= primaryexp { '.' NAME | '[' exp ']' | ':' NAME funcargs | funcargs }
suffixedExp : primaryExp suffix* ;

primaryExp
    : NAME                  # nameExp
    | '(' exp ')'           # parenExp
    ;

suffix
    : '.' NAME              # fieldSuffix
    | '[' exp ']'           # indexSuffix
    | ':' NAME args         # methodSuffix
    | args                  # callSuffix
    ;

args
    : '(' expList? ')'      # listArgs
    | tableConstructor      # tableArgs
    | STRING                # stringArgs
    ;

// funcbody ::= '(' [parlist] ')' block end
funcBody : '(' parList? ')' block 'end' ;
parList : NAME (',' NAME)* (',' '...')? | '...' ;

// fieldlist ::= field {fieldsep field} [fieldsep] ; fieldsep ::= ',' | ';'
tableConstructor : '{' fieldList? '}' ;
fieldList : field ((',' | ';') field)* (',' | ';')? ;
field
    : '[' exp ']' '=' exp   # keyedField
    | NAME '=' exp          # namedField
    | exp                   # positionalField
    ;

// ---------------------------------------------------------------- lexer
AND : 'and' ; BREAK : 'break' ; DO : 'do' ; ELSE : 'else' ; ELSEIF : 'elseif' ;
END : 'end' ; FALSE : 'false' ; FOR : 'for' ; FUNCTION : 'function' ; GOTO : 'goto' ;
IF : 'if' ; IN : 'in' ; LOCAL : 'local' ; NIL : 'nil' ; NOT : 'not' ; OR : 'or' ;
REPEAT : 'repeat' ; RETURN : 'return' ; THEN : 'then' ; TRUE : 'true' ; UNTIL : 'until' ;
WHILE : 'while' ;

PLUS : '+' ; MINUS : '-' ; STAR : '*' ; SLASH : '/' ; PERCENT : '%' ; CARET : '^' ;
HASH : '#' ; AMP : '&' ; TILDE : '~' ; PIPE : '|' ; SHL : '<<' ; SHR : '>>' ;
DSLASH : '//' ; EQ : '==' ; NE : '~=' ; LE : '<=' ; GE : '>=' ; LT : '<' ; GT : '>' ;
ASSIGN : '=' ; LPAREN : '(' ; RPAREN : ')' ; LBRACE : '{' ; RBRACE : '}' ;
LBRACKET : '[' ; RBRACKET : ']' ; DCOLON : '::' ; SEMI : ';' ; COLON : ':' ;
COMMA : ',' ; DOT : '.' ; CONCAT : '..' ; ELLIPSIS : '...' ;

NAME : [a-zA-Z_] [a-zA-Z_0-9]* ;

INT : DIGIT+ | '0' [xX] HEXDIGIT+ ;
FLOAT
    : DIGIT+ '.' DIGIT* EXPONENT?
    | '.' DIGIT+ EXPONENT?
    | DIGIT+ EXPONENT
    | '0' [xX] HEXDIGIT* '.'? HEXDIGIT* HEXEXPONENT?
    ;

// Short strings; long strings [[...]] / [=[...]=] of any level are lexed by LuaLexer.
STRING
    : '"' (ESCAPE | ~["\\\r\n])* '"'
    | '\'' (ESCAPE | ~['\\\r\n])* '\''
    | '[' NESTED_STR ']'
    ;

COMMENT : '--' '[' NESTED_STR ']' -> skip ;
LINE_COMMENT : '--' ~[\r\n]* -> skip ;
WS : [ \t\u000B\f\r\n]+ -> skip ;
SHEBANG : '#' '!' ~[\r\n]* -> skip ;

fragment NESTED_STR : '=' NESTED_STR '=' | '[' .*? ']' ;
fragment ESCAPE
    : '\\' [abfnrtvz"'\\\r\n]
    | '\\' DIGIT DIGIT? DIGIT?
    | '\\x' HEXDIGIT HEXDIGIT
    | '\\u{' HEXDIGIT+ '}'
    ;
fragment EXPONENT : [eE] [+-]? DIGIT+ ;
fragment HEXEXPONENT : [pP] [+-]? DIGIT+ ;
fragment DIGIT : [0-9] ;
fragment HEXDIGIT : [0-9a-fA-F] ;
