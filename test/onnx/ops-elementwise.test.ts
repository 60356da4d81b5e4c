// ONNX export of activations and pnnx.Expression, held to the reference engine through onnxruntime-node:
// every activation type (and the forms opset 17 lacks: SiLU, Mish, GELU, Softplus with beta/threshold),
// every expression function with an ONNX mapping, broadcasting, folded size() scalars and constants.
import { opTests, type OpCase } from './op-cases.ts';

const X: number[] = [2, 3, 4, 5];
const act = (type: string, args = ''): OpCase => ({ name: `${type} ${args}`.trim(), type, args, inputs: [X], range: [-8, 8] });

const ACTIVATIONS: OpCase[] = [
  act('nn.ReLU'), act('F.relu'), act('nn.ReLU6'), act('nn.Sigmoid'), act('torch.sigmoid'), act('nn.SiLU'), act('nn.Tanh'),
  act('nn.Hardswish'), act('nn.Hardsigmoid'), act('nn.Mish'), act('nn.LeakyReLU'), act('nn.LeakyReLU', 'negative_slope=0.2'),
  act('nn.ELU', 'alpha=0.5'), act('nn.Hardtanh', 'min_val=-2.0 max_val=3.0'), act('nn.Softplus'), act('nn.Softplus', 'beta=2.0 threshold=1.0'),
  act('torch.clamp', 'min=-1.5 max=None'), act('torch.clamp', 'min=None max=2'), act('torch.clamp', 'min=-0.5 max=0.5'),
  act('torch.clamp', 'min=1.0 max=-1.0'), // min > max: max everywhere, in PyTorch and in onnxruntime's Clip
  act('nn.GELU'), act('F.gelu', 'approximate=tanh'),
  { name: 'PReLU per channel', type: 'nn.PReLU', args: 'num_parameters=3 @weight=(3)f32', inputs: [X] },
  { name: 'PReLU one slope', type: 'nn.PReLU', args: 'num_parameters=1 @weight=(1)f32', inputs: [X] },
  { name: 'PReLU on (N,C)', type: 'nn.PReLU', args: 'num_parameters=4 @weight=(4)f32', inputs: [[3, 4]] },
  {
    name: 'F.prelu with a pnnx.Attribute slope', inputs: [X],
    lines: ['pnnx.Input in0 0 1 x #x=(2,3,4,5)f32', 'pnnx.Attribute w 0 1 s @data=(3)f32', 'F.prelu op 2 1 x s y', 'pnnx.Output out0 1 0 y'],
  },
  { name: 'Softmax dim 1', type: 'F.softmax', args: 'dim=1', inputs: [X], range: [-20, 20] },
  { name: 'LogSoftmax dim -1', type: 'nn.LogSoftmax', args: 'dim=-1', inputs: [X], range: [-20, 20] },
];

const expr = (text: string, inputs: number[][] = [X, X], range: [number, number] = [-2, 2]): OpCase => ({
  name: `expr ${text}`, type: 'pnnx.Expression', args: `expr=${text}`, inputs, range,
});

const EXPRESSIONS: OpCase[] = [
  expr('add(@0,mul(@1,2))'),
  expr('sub(div(@0,add(abs(@1),1)),pow(@0,2))'),
  expr('mul(@0,@1)', [X, [1, 3, 1, 1]]),
  expr('add(@0,@1)', [[3, 1, 5], [4, 1]]),
  expr('max(min(@0,0.5),neg(@1))'),
  expr('maximum(@0,@1)'), expr('minimum(@0,@1)'),
  expr('sqrt(add(abs(@0),1e-3))', [X]), expr('rsqrt(add(abs(@0),0.1))', [X]), expr('exp(@0)', [X]),
  expr('log(add(abs(@0),0.01))', [X]), expr('log10(add(abs(@0),0.01))', [X]), expr('log1p(abs(@0))', [X]), expr('expm1(@0)', [X]),
  expr('erf(@0)', [X]), expr('floor(mul(@0,3))', [X]), expr('ceil(mul(@0,3))', [X]), expr('round(mul(@0,4))', [X]), expr('trunc(mul(@0,3))', [X]),
  expr('sin(@0)', [X]), expr('cos(@0)', [X]), expr('tan(mul(@0,0.5))', [X]), expr('tanh(@0)', [X]), expr('atan(@0)', [X]),
  expr('asin(mul(@0,0.4))', [X]), expr('acos(mul(@0,0.4))', [X]), expr('sinh(@0)', [X]), expr('cosh(@0)', [X]),
  expr('sign(@0)', [X]), expr('square(@0)', [X]), expr('reciprocal(add(abs(@0),0.5))', [X]),
  expr('pow(abs(@0),0.5)', [X]), expr('fmod(mul(@0,5),@1)'), expr('remainder(mul(@0,5),add(abs(@1),0.5))'),
  expr('floor_divide(mul(@0,5),add(abs(@1),0.5))'),
  // size() of a static dim folds to a scalar constant; an int literal with a float operand computes in float.
  expr('mul(@0,size(@0,2))', [X]), expr('add(@0,1)', [X]), expr('div(@0,int(size(@0,3)))', [X]),
  expr('@0', [X]),
  {
    name: 'expr adding a pnnx.Attribute constant', inputs: [X],
    lines: ['pnnx.Input in0 0 1 x #x=(2,3,4,5)f32', 'pnnx.Attribute c 0 1 k @data=(1,3,1,1)f32', 'pnnx.Expression op 2 1 x k y expr=add(@0,mul(@1,3))', 'pnnx.Output out0 1 0 y'],
  },
];

opTests('activation', ACTIVATIONS);
opTests('expression', EXPRESSIONS);
