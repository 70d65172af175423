// geolookup/extend in Node: the browser's part (src/extend/common.ts), the one extension loader,
// and what the products' commands share with the CLI (its argument parser, its worker starter).

export * from './extend/common.js';
export { EXTENSIONS_ENV, findExtensions, forgetExtensions, openExtension } from './extend/loader.js';
export {
  DATA_OPTION,
  defineCommand,
  EXIT,
  helpText,
  type CommandSpec,
  type OptionSpecs,
  type Parsed,
  parseCommand,
  type Print,
  runCommand,
  UsageError,
  usageError,
  wholeNumber,
} from './cli/args.js';
export { groupDigits } from './cli/numbers.js';
export { startModuleWorker } from './node/worker.js';
export * from './extend/data-build.js';
