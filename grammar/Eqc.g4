// Grammar of the eqc modelling language: a Modelica-style subset that grows issue by issue.
grammar Eqc;

storedDefinition : classDefinition+ EOF ;

classDefinition
  : classKind modelName=IDENT description? composition END endName=IDENT? ';'
  ;

classKind : MODEL ;

composition
  : element* section* (annotation ';')?
  ;

element
  : declaration ';'
  ;

section
  : INITIAL? EQUATION (equation ';')*
  ;

declaration
  : typePrefix? typeSpec=name componentDeclaration (',' componentDeclaration)*
  ;

typePrefix : PARAMETER | CONSTANT ;

componentDeclaration
  : IDENT modification? comment
  ;

modification
  : classModification ('=' expression)?
  | '=' expression
  ;

classModification : '(' (argument (',' argument)*)? ')' ;

argument : name modification? ;

comment : description? annotation? ;

description : STRING ('+' STRING)* ;

annotation : ANNOTATION classModification ;

equation
  : lhs=expression '=' rhs=expression comment     # simpleEquation
  ;

expression
  : <assoc=right> expression op='^' expression                      # powerExpr
  | op=('-' | '+') expression                                       # unaryExpr
  | expression op=('*' | '/') expression                            # mulExpr
  | expression op=('+' | '-') expression                            # addExpr
  | expression op=('<' | '<=' | '>' | '>=' | '==' | '<>') expression # relationExpr
  | NOT expression                                                  # notExpr
  | expression AND expression                                       # andExpr
  | expression OR expression                                        # orExpr
  | IF expression THEN expression (ELSEIF expression THEN expression)* ELSE expression # ifExpr
  | primary                                                         # primaryExpr
  ;

primary
  : NUMBER                                   # numberLiteral
  | (TRUE | FALSE)                           # boolLiteral
  | STRING                                   # stringLiteral
  | name '(' (expression (',' expression)*)? ')' # callExpr
  | name                                     # nameExpr
  | '(' expression ')'                       # parenExpr
  ;

name : IDENT ('.' IDENT)* ;

// Keywords (before IDENT so that they win).
MODEL : 'model' ;
END : 'end' ;
EQUATION : 'equation' ;
INITIAL : 'initial' ;
PARAMETER : 'parameter' ;
CONSTANT : 'constant' ;
ANNOTATION : 'annotation' ;
IF : 'if' ;
THEN : 'then' ;
ELSEIF : 'elseif' ;
ELSE : 'else' ;
AND : 'and' ;
OR : 'or' ;
NOT : 'not' ;
TRUE : 'true' ;
FALSE : 'false' ;

IDENT : [a-zA-Z_] [a-zA-Z_0-9]* ;
NUMBER
  : DIGIT+ ('.' DIGIT*)? EXPONENT?
  | '.' DIGIT+ EXPONENT?
  ;
fragment DIGIT : [0-9] ;
fragment EXPONENT : [eE] [+-]? DIGIT+ ;
STRING : '"' (~["\\] | '\\' .)* '"' ;

LINE_COMMENT : '//' ~[\r\n]* -> skip ;
BLOCK_COMMENT : '/*' .*? '*/' -> skip ;
WS : [ \t\r\n]+ -> skip ;
