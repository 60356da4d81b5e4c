// The flowinfer command line. Each command lives in its own file; this one wires them to commander and
// turns flowinfer's own errors into one clear line and exit status 1 (a stack trace means a bug).

import { Command, InvalidArgumentError } from 'commander';
import { FlowinferError } from '../errors.ts';
import { parseShapeOption } from './format.ts';
import { initWeightsCommand } from './init-weights.ts';
import { inspectCommand, type InspectOptions } from './inspect.ts';
import type { OptLevel } from '../graph/passes/index.ts';
import { runCommand, type RunOptions } from './run.ts';
import { demoCommand, type DemoOptions } from './demo.ts';
import { videoCommand, type VideoOptions } from './video.ts';
import { benchCommand, type BenchOptions } from './bench.ts';
import { exportOnnxCommand, type ExportOnnxOptions } from './export-onnx.ts';

function shapeOption(value: string, previous: number[][] = []): number[][] {
  try {
    return [...previous, parseShapeOption(value)];
  } catch (e) {
    throw new InvalidArgumentError((e as Error).message);
  }
}

function optLevelOption(value: string): OptLevel {
  const n = Number(value);
  if (n !== 0 && n !== 1 && n !== 2 && n !== 3) throw new InvalidArgumentError(`expected 0, 1, 2 or 3, got ${value}`);
  return n;
}

function intOption(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n)) throw new InvalidArgumentError(`expected an integer, got ${value}`);
  return n;
}

function runAction<A extends unknown[]>(action: (...args: A) => string | Promise<string>) {
  return async (...args: A) => {
    try {
      const out = await action(...args);
      if (out) process.stdout.write(`${out}\n`);
    } catch (e) {
      if (e instanceof FlowinferError || (e as NodeJS.ErrnoException).code === 'ENOENT') {
        process.stderr.write(`flowinfer: ${(e as Error).message}\n`);
        process.exitCode = 1;
        return;
      }
      throw e;
    }
  };
}

const MODEL_ARGUMENT = 'a .pnnx.param or .onnx file, or zoo:resnet18 / zoo:mobilenet_v2 / zoo:yolov5s';

const program = new Command('flowinfer')
  .description('A streaming dataflow inference engine for PNNX and ONNX models')
  .showHelpAfterError();

program
  .command('inspect')
  .description('print each node (topological order) with output shapes, parameters and multiply-accumulates')
  .argument('<model>', MODEL_ARGUMENT)
  .option('--input-shape <dims>', 'shape of an input, e.g. 1,3,224,224 (repeat for several inputs)', shapeOption)
  .option('--json', 'print JSON: {nodes:[{name,type,outputs,params,macs}],totals:{nodes,params,macs}}')
  .option('--dot <file>', 'also write the graph as Graphviz DOT')
  .option('--passes', 'optimise the graph first and print what each pass changed')
  .option('--opt-level <n>', 'optimisation level 0-3 for --passes (default 3)', optLevelOption)
  .action(runAction((model: string, opts: InspectOptions) => inspectCommand(model, opts)));

program
  .command('init-weights')
  .description('write a .pnnx.bin of seeded random weights (He-scaled) for a graph')
  .argument('<model>', 'the .pnnx.param file')
  .option('--seed <n>', 'random seed', intOption, 1)
  .option('-o, --output <file>', 'the .pnnx.bin to write (default: beside the .param)')
  .action(runAction((model: string, opts: { seed: number; output?: string }) => initWeightsCommand(model, opts)));

function numberOption(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n)) throw new InvalidArgumentError(`expected a number, got ${value}`);
  return n;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

program
  .command('run')
  .description('run a model once and print each output (shape, min, max, mean, first values)')
  .argument('<model>', MODEL_ARGUMENT)
  .option('--bin <file>', 'the .pnnx.bin weights (default: beside the .param)')
  .option('--input <file.npy>', 'an input tensor as .npy (repeat for several inputs)', collect)
  .option('--fill <v>', 'fill every input with this value', numberOption)
  .option('--random <seed>', 'fill inputs with seeded uniform [0,1) values (the default, seed 0)', intOption)
  .option('--input-shape <dims>', 'input shape, e.g. 1,3,224,224 (repeat for several inputs)', shapeOption)
  .option('--engine <name>', 'fast (SIMD kernels on worker threads, the default) or reference')
  .option('--opt-level <n>', 'graph optimisation level 0-3 (default 3)', optLevelOption)
  .option('--threads <n>', 'worker threads of the fast engine (default: the cores)', intOption)
  .option('--image <file>', 'a picture as input (repeat: several form a batch); prints top-k classes or boxes (--json: as JSON)', collect)
  .option('--size <px>', '--image: model input size, 224 or WxH (default: what the model declares)')
  .option('--mean <r,g,b>', '--image: per-channel mean of pixels in [0,1] (default: ImageNet for classifiers, 0 for detectors)')
  .option('--std <r,g,b>', '--image: per-channel standard deviation (default: ImageNet for classifiers, 1 for detectors)')
  .option('--labels <file>', '--image: class names, one per line (detectors with 80 classes: COCO by default)')
  .option('--top <k>', '--image: classes to print for a classifier', intOption, 5)
  .option('--conf <v>', '--image: detector confidence threshold (objectness x class score)', numberOption, 0.25)
  .option('--iou <v>', '--image: detector NMS IoU threshold', numberOption, 0.45)
  .option('--max-det <n>', '--image: detector boxes kept at most', intOption, 300)
  .option('--out <file>', '--image: write the picture with the boxes or best class drawn on it (a batch: FILE.0.png, FILE.1.png, ...)')
  .option('--json', 'print the full output arrays as JSON')
  .action(runAction((model: string, opts: RunOptions) => runCommand(model, opts)));

program
  .command('demo')
  .description('stream a generated moving test pattern through an embedded model (what npm start runs)')
  .option('--model <model>', 'a zoo model, a .pnnx.param or an .onnx file', 'zoo:mobilenet_v2')
  .option('--frames <n>', 'frames to stream', intOption, 300)
  .option('--size <px>', 'frame size in pixels', intOption, 160)
  .option('--in-flight <k>', 'frames in flight at once', intOption, 3)
  .option('--threads <n>', 'worker threads (default: the cores)', intOption)
  .action(runAction((opts: DemoOptions) => demoCommand(opts)));

program
  .command('video')
  .description('stream a video (anything ffmpeg reads) through a model: results per frame in order, a live progress line, a summary')
  .argument('<input>', 'a video file (or any input ffmpeg takes)')
  .requiredOption('--model <model>', MODEL_ARGUMENT)
  .option('--bin <file>', 'the .pnnx.bin weights (default: beside the .param)')
  .option('--size <px>', 'model input size, 224 or WxH; ffmpeg scales the frames to it (default: what the model declares)')
  .option('--fps <n>', 'resample the video to this rate (ffmpeg fps filter)', numberOption)
  .option('--frames <n>', 'stop after this many frames', intOption)
  .option('--batch <n>', 'frames per run (one batch tensor)', intOption, 1)
  .option('--in-flight <k>', 'runs in flight at once, each in its own arena slot', intOption, 2)
  .option('--policy <p>', 'when every slot is busy: block (ffmpeg waits), drop-oldest or drop-newest (the video plays at its own pace)', 'block')
  .option('--out <file>', 'results.jsonl (JSON lines), results.msgpack (msgpack records) or annotated.mp4 (frames with results drawn); default: JSON lines on stdout')
  .option('--profile', 'end with the time per node, sorted by share')
  .option('--engine <name>', 'fast (the default) or reference')
  .option('--opt-level <n>', 'graph optimisation level 0-3 (default 3)', optLevelOption)
  .option('--threads <n>', 'worker threads of the fast engine (default: the cores)', intOption)
  .option('--mean <r,g,b>', 'per-channel mean of pixels in [0,1] (default: ImageNet for classifiers, 0 for detectors)')
  .option('--std <r,g,b>', 'per-channel standard deviation (default: ImageNet for classifiers, 1 for detectors)')
  .option('--labels <file>', 'class names, one per line (detectors with 80 classes: COCO by default)')
  .option('--top <k>', 'classes per frame for a classifier', intOption, 5)
  .option('--conf <v>', 'detector confidence threshold (objectness x class score)', numberOption, 0.25)
  .option('--iou <v>', 'detector NMS IoU threshold', numberOption, 0.45)
  .option('--max-det <n>', 'detector boxes kept per frame at most', intOption, 300)
  .action(runAction((input: string, opts: VideoOptions) => videoCommand(input, opts)));

program
  .command('bench')
  .description('stream generated frames through a model: latency p50/p99, frames/s, CPU use, dispatch share')
  .argument('<model>', MODEL_ARGUMENT)
  .option('--bin <file>', 'the .pnnx.bin weights (default: beside the .param)')
  .option('--batch <n>', 'frames per run', intOption, 1)
  .option('--frames <n>', 'frames to time (after one warm-up run)', intOption, 64)
  .option('--in-flight <k>', 'runs in flight at once', intOption, 2)
  .option('--threads <n>', 'worker threads of the fast engine (default: the cores)', intOption)
  .option('--size <px>', 'input size, 224 or WxH (default: what the model declares)')
  .option('--engine <name>', 'fast (the default) or reference')
  .option('--opt-level <n>', 'graph optimisation level 0-3 (default 3)', optLevelOption)
  .option('--profile', 'also print the time per node (stderr)')
  .option('--json', 'print {"model","batch","threads","inFlight","frames","framesPerSec","p50Ms","p99Ms",...}')
  .action(runAction((model: string, opts: BenchOptions) => benchCommand(model, opts)));

program
  .command('export-onnx')
  .description('write a model as ONNX (IR 8, opset 17) with its weights, for onnxruntime and other runtimes')
  .argument('<model>', MODEL_ARGUMENT)
  .option('--bin <file>', 'the .pnnx.bin weights (default: beside the .param)')
  .option('--opt-level <n>', 'graph optimisation level 0-3 before export (default 3)', optLevelOption)
  .option('--input-shape <dims>', 'input shape to export for, e.g. 1,3,224,224 (repeat for several inputs)', shapeOption)
  .option('-o, --output <file>', 'the .onnx file to write')
  .action(runAction((model: string, opts: ExportOnnxOptions) => exportOnnxCommand(model, opts)));

await program.parseAsync(process.argv);
