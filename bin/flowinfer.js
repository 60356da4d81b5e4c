#!/usr/bin/env node
// The `flowinfer` command: flowinfer is written in TypeScript and runs through tsx's loader.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
