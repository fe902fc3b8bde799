// Grammar of the eqc modelling language: a Modelica-style subset that grows issue by issue.
grammar Eqc;

storedDefinition : (WITHIN name? ';')? (classDefinition ';')+ EOF ;

// `model M ... end M` or the short form `type Voltage = Real(unit = "V")`, `connector In = input Real`.
// MLS 3.5, 7.3.1: `redeclare model extends M (modification) ... end M;` extends the M it inherits.
classDefinition
  : ENCAPSULATED? PARTIAL? classKind (EXTENDS modelName=IDENT classModification? | modelName=IDENT) description?
      composition END endName=IDENT?                                                          # longClass
  | ENCAPSULATED? PARTIAL? classKind modelName=IDENT '=' typePrefix* typeSpec=name arraySubscripts?
      classModification? comment                                                              # shortClass
  | ENCAPSULATED? PARTIAL? classKind modelName=IDENT '=' ENUMERATION
      '(' (enumerationLiteral (',' enumerationLiteral)* | open=':')? ')' comment              # enumerationClass
  ;

// MLS 3.5, 4.8.5: `type E = enumeration(a "description", b, c)`.
enumerationLiteral : IDENT comment ;

// MLS 3.5, 4.6: the class prefixes.
classKind
  : CLASS | MODEL | BLOCK | EXPANDABLE? CONNECTOR | OPERATOR? RECORD | PACKAGE | TYPE
  | (PURE | IMPURE)? OPERATOR? FUNCTION | OPERATOR
  ;

composition
  : element* (PUBLIC element* | PROTECTED element* | equationSection | algorithmSection)* externalClause?
    (annotation ';')?
  ;

// MLS 3.5, 12.9: `external "C" y = f(x) annotation(Library = "m");` of a function.
externalClause : EXTERNAL language=STRING? externalFunctionCall? annotation? ';' ;

externalFunctionCall : (componentRef '=')? IDENT '(' (expression (',' expression)*)? ')' ;

element
  : classPrefix* classDefinition constrainingClause? ';' # classElement
  | EXTENDS name classModification? annotation? ';' # extendsElement
  | IMPORT importName comment ';'         # importElement
  | declaration ';'                       # declarationElement
  ;

importName
  : alias=IDENT '=' name
  | name ('.*' | '.' '*')?
  ;

equationSection : INITIAL? EQUATION (equation ';')* ;

algorithmSection : INITIAL? ALGORITHM (statement ';')* ;

declaration
  : typePrefix* typeSpec=name arraySubscripts? componentDeclaration (',' componentDeclaration)*
    constrainingClause?
  ;

// MLS 3.5, 7.3.2: `replaceable Resistor r constrainedby TwoPin;`
constrainingClause : CONSTRAINEDBY name classModification? comment ;

// MLS 3.5, 5.4 and 7.3: the prefixes of an element that is a class.
classPrefix : REDECLARE | FINAL | INNER | OUTER | REPLACEABLE ;

typePrefix : PARAMETER | CONSTANT | DISCRETE | FLOW | STREAM | INPUT | OUTPUT | FINAL | INNER | OUTER | REPLACEABLE | REDECLARE ;

componentDeclaration
  : IDENT arraySubscripts? modification? (IF condition=expression)? comment
  ;

arraySubscripts : '[' subscript (',' subscript)* ']' ;

subscript : ':' | expression ;

modification
  : classModification ('=' expression)?
  | '=' expression
  | ':=' expression
  ;

classModification : '(' (argument (',' argument)*)? ')' ;

argument : EACH? FINAL? name modification? description? | elementRedeclaration ;

// MLS 3.5, 7.3: `redeclare Resistor2 r(R = 2)` or `redeclare model M = B` in a modification.
elementRedeclaration
  : REDECLARE EACH? FINAL? REPLACEABLE?
    (classDefinition | typePrefix* typeSpec=name arraySubscripts? componentDeclaration) constrainingClause?
  ;

comment : description? annotation? ;

description : STRING ('+' STRING)* ;

annotation : ANNOTATION classModification ;

equation
  : lhs=expression '=' rhs=expression comment                                     # simpleEquation
  | IF expression THEN (equation ';')*
      (ELSEIF expression THEN (equation ';')*)*
      (ELSE (equation ';')*)? END IF comment                                      # ifEquation
  | FOR forIndices LOOP (equation ';')* END FOR comment                           # forEquation
  | WHEN expression THEN (equation ';')*
      (ELSEWHEN expression THEN (equation ';')*)* END WHEN comment                # whenEquation
  | CONNECT '(' componentRef ',' componentRef ')' comment                         # connectEquation
  | componentRef functionCallArgs comment                                         # callEquation
  ;

statement
  : componentRef ':=' expression comment                                          # assignStatement
  | '(' outputList ')' ':=' componentRef functionCallArgs comment                 # tupleAssignStatement
  | componentRef functionCallArgs comment                                         # callStatement
  | IF expression THEN (statement ';')*
      (ELSEIF expression THEN (statement ';')*)*
      (ELSE (statement ';')*)? END IF comment                                     # ifStatement
  | FOR forIndices LOOP (statement ';')* END FOR comment                          # forStatement
  | WHILE expression LOOP (statement ';')* END WHILE comment                      # whileStatement
  | WHEN expression THEN (statement ';')*
      (ELSEWHEN expression THEN (statement ';')*)* END WHEN comment                # whenStatement
  | BREAK comment                                                                 # breakStatement
  | RETURN comment                                                                # returnStatement
  ;

outputList : componentRef? (',' componentRef?)* ;

forIndices : forIndex (',' forIndex)* ;

forIndex : IDENT (IN expression)? ;

expression
  : <assoc=right> expression op=('^' | '.^') expression                           # powerExpr
  | op=('-' | '+') expression                                                     # unaryExpr
  | expression op=('*' | '/' | '.*' | './') expression                            # mulExpr
  | expression op=('+' | '-' | '.+' | '.-') expression                            # addExpr
  | expression op=('<' | '<=' | '>' | '>=' | '==' | '<>') expression              # relationExpr
  | NOT expression                                                                # notExpr
  | expression AND expression                                                     # andExpr
  | expression OR expression                                                      # orExpr
  | expression ':' expression ':' expression                                      # rangeStepExpr
  | expression ':' expression                                                     # rangeExpr
  | IF expression THEN expression (ELSEIF expression THEN expression)* ELSE expression # ifExpr
  | primary                                                                       # primaryExpr
  ;

primary
  : NUMBER                                          # numberLiteral
  | (TRUE | FALSE)                                  # boolLiteral
  | STRING                                          # stringLiteral
  | componentRef functionCallArgs                   # callExpr
  | INITIAL '(' ')'                                 # initialExpr
  | componentRef                                    # nameExpr
  | '(' expression ')'                              # parenExpr
  | '(' outputList ')'                              # tupleExpr
  | '{' expression (',' expression)* '}'            # arrayExpr
  | '{' expression FOR forIndices '}'               # arrayComprehension
  | '[' expression (',' expression)* (';' expression (',' expression)*)* ']' # matrixExpr
  | END                                             # endExpr
  ;

functionCallArgs
  : '(' (functionArgument (',' functionArgument)*)? ')'
  | '(' expression FOR forIndices ')'
  ;

functionArgument : (argName=IDENT '=')? (expression | functionPartialApplication) ;

// MLS 3.5, 12.4.2.1: `function f(k = 2)` passes a function (with some inputs bound) as an argument.
functionPartialApplication : FUNCTION name '(' (functionArgument (',' functionArgument)*)? ')' ;

// MLS 3.5, 5.3.3: a leading '.' looks the name up at the top level only.
componentRef : '.'? refPart ('.' refPart)* ;

refPart : IDENT arraySubscripts? ;

name : '.'? IDENT ('.' IDENT)* ;

// Keywords (before IDENT so that they win).
CLASS : 'class' ;
MODEL : 'model' ;
BLOCK : 'block' ;
CONNECTOR : 'connector' ;
FUNCTION : 'function' ;
RECORD : 'record' ;
PACKAGE : 'package' ;
TYPE : 'type' ;
EXPANDABLE : 'expandable' ;
ENUMERATION : 'enumeration' ;
OPERATOR : 'operator' ;
PURE : 'pure' ;
IMPURE : 'impure' ;
END : 'end' ;
EQUATION : 'equation' ;
ALGORITHM : 'algorithm' ;
INITIAL : 'initial' ;
PARAMETER : 'parameter' ;
CONSTANT : 'constant' ;
DISCRETE : 'discrete' ;
FLOW : 'flow' ;
STREAM : 'stream' ;
INPUT : 'input' ;
OUTPUT : 'output' ;
FINAL : 'final' ;
INNER : 'inner' ;
OUTER : 'outer' ;
REPLACEABLE : 'replaceable' ;
REDECLARE : 'redeclare' ;
CONSTRAINEDBY : 'constrainedby' ;
EXTERNAL : 'external' ;
EACH : 'each' ;
PARTIAL : 'partial' ;
ENCAPSULATED : 'encapsulated' ;
WITHIN : 'within' ;
EXTENDS : 'extends' ;
IMPORT : 'import' ;
PUBLIC : 'public' ;
PROTECTED : 'protected' ;
ANNOTATION : 'annotation' ;
CONNECT : 'connect' ;
IF : 'if' ;
THEN : 'then' ;
ELSEIF : 'elseif' ;
ELSE : 'else' ;
FOR : 'for' ;
IN : 'in' ;
LOOP : 'loop' ;
WHILE : 'while' ;
WHEN : 'when' ;
ELSEWHEN : 'elsewhen' ;
BREAK : 'break' ;
RETURN : 'return' ;
AND : 'and' ;
OR : 'or' ;
NOT : 'not' ;
TRUE : 'true' ;
FALSE : 'false' ;

// MLS 3.5, 2.3.1: an identifier, or a quoted one ('x y', the quotes are part of it).
IDENT : [a-zA-Z_] [a-zA-Z_0-9]* | '\'' (~['\\\r\n] | '\\' .)+ '\'' ;
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
