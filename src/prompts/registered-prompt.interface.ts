import type { CompleterTable } from '../items/completer.js';
import type { ServedHandler } from '../execution/served-handler.js';
import type { PromptDefinition } from '../protocol/mcp.types.js';
import type { ArgumentsChecker } from '../schemas/arguments-checker.js';

/** A prompt ready to serve: its advertised definition, its arguments check, its completers. */
export interface RegisteredPrompt extends ServedHandler {
  readonly definition: PromptDefinition;
  /** The argument names, in order. */
  readonly argumentNames: readonly string[];
  /** Checks (and, for a DTO, transforms) the arguments of a `prompts/get`. */
  readonly checkArguments: ArgumentsChecker;
  /** Completers by argument name. */
  readonly completers: CompleterTable;
}
