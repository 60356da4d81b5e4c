export { parsePnnxParam, PNNX_MAGIC } from './parse-param.ts';
export { printPnnxParam, printNodeLine, type PrintOptions } from './print-param.ts';
export { readPnnxBin, bindWeights, writePnnxBin } from './bin.ts';
export { loadPnnxFiles, defaultBinPath, type LoadFilesOptions } from './load.ts';
