// Models built in code with seeded weights: an embedded default model on a fresh clone.
export { resnet18 } from './resnet18.ts';
export { mobilenetV2 } from './mobilenet-v2.ts';
export { yolov5s } from './yolov5s.ts';
export { initWeights } from './init-weights.ts';
export { GraphBuilder } from './builder.ts';
export type { ZooOptions } from './options.ts';
