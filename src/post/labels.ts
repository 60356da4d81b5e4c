// Class names: from a text file (one per line, as torchvision's and YOLOv5's label files are), or COCO's
// for detectors with 80 classes.

import { readFileSync } from 'node:fs';
import { UsageError } from '../errors.ts';
import { COCO_CLASSES } from './coco.ts';

export function readLabels(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`--labels ${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
  const lines = text.split(/\r?\n/).map((l) => l.trim());
  while (lines.length && lines[lines.length - 1] === '') lines.pop();
  if (lines.length === 0) throw new UsageError(`--labels ${file}: the file is empty (expected one class name per line)`);
  return lines;
}

/** The labels to use: the given ones, COCO's for an 80-class detector, else none (class numbers print). */
export function defaultLabels(kind: 'detect' | 'classify', classes: number, given?: readonly string[]): readonly string[] | undefined {
  if (given) return given;
  return kind === 'detect' && classes === COCO_CLASSES.length ? COCO_CLASSES : undefined;
}
