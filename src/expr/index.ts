// pnnx.Expression: lexer, parser, printer, reverse-Polish listing, reference evaluator,
// shape/type rule and fused-kernel compiler.
export {
  type Expr, type Span, type CallNode, type ListNode, type OperandNode, type IntNode, type FloatNode,
  type ComplexNode, type BoolNode, type NoneNode, type Leaf,
  operand, int, float, complex, bool, none, call, list,
  childrenOf, postorder, formatRPN, rpnToken, formatFloat, sameExpr, substituteOperands,
} from './ast.ts';
export { ExprError } from './error.ts';
export { tokenize, type Token, type TokenKind } from './lexer.ts';
export { parseExpression, toParsed, type ParsedExpression, type ParseOptions, type ExpressionInput } from './parser.ts';
export { printExpression } from './print.ts';
export { FUNCTION_NAMES, UNARY_FUNCTIONS, BINARY_FUNCTIONS, CAST_FUNCTIONS, lookupFunction, type FunctionInfo } from './functions.ts';
export { type Kind, type ResultDType } from './semantics.ts';
export { evaluateExpression } from './evaluate.ts';
export { inferExpression, analyseExpression, type OperandInfo, type ValueInfo, type ExpressionType } from './shape.ts';
export {
  compileExpression, kernelFromSource,
  type CompiledExpression, type CompileOptions, type Kernel, type KernelArray, type KernelDescriptor, type KernelInputDType,
} from './compile.ts';
