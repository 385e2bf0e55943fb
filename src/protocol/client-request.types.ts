/**
 * What the server asks the client (elicitation, sampling, roots) and what the client answers,
 * written from the specification's schema (`schema/<version>/schema.ts`).
 */

import type { AudioContent, ImageContent, Meta, Role, TextContent } from './content.types.js';

/** A restricted JSON Schema for an elicitation form: flat, primitive properties only. */
export interface ElicitationSchema {
  readonly type: 'object';
  readonly properties: Record<string, Record<string, unknown>>;
  readonly required?: readonly string[];
  readonly [key: string]: unknown;
}

/** The params of `elicitation/create`: a form (the default), or a URL the user opens (2025-11-25 `mode: 'url'`). */
export type ElicitRequestParams =
  | {
      readonly mode?: 'form';
      readonly message: string;
      readonly requestedSchema: ElicitationSchema;
      readonly _meta?: Meta;
    }
  | {
      readonly mode: 'url';
      readonly message: string;
      readonly url: string;
      readonly elicitationId: string;
      readonly _meta?: Meta;
    };

/** The client's answer to `elicitation/create`. */
export interface ElicitResult {
  readonly action: 'accept' | 'decline' | 'cancel';
  /** The submitted form, when the user accepted a form elicitation. */
  readonly content?: Record<string, string | number | boolean | readonly string[]>;
  readonly _meta?: Meta;
}

/** A message of a sampling conversation. */
export interface SamplingMessage {
  readonly role: Role;
  readonly content: TextContent | ImageContent | AudioContent | readonly (TextContent | ImageContent | AudioContent)[];
  readonly _meta?: Meta;
}

/** The params of `sampling/createMessage`. */
export interface CreateMessageRequestParams {
  readonly messages: readonly SamplingMessage[];
  readonly maxTokens: number;
  readonly systemPrompt?: string;
  readonly modelPreferences?: Record<string, unknown>;
  readonly includeContext?: 'none' | 'thisServer' | 'allServers';
  readonly temperature?: number;
  readonly stopSequences?: readonly string[];
  readonly metadata?: Record<string, unknown>;
  readonly [key: string]: unknown;
}

/** The client's answer to `sampling/createMessage`. */
export interface CreateMessageResult {
  readonly role: Role;
  readonly content: unknown;
  readonly model: string;
  readonly stopReason?: string;
  readonly _meta?: Meta;
  readonly [key: string]: unknown;
}

/** A root the client exposes (a directory or file the server may work in). */
export interface Root {
  readonly uri: string;
  readonly name?: string;
  readonly _meta?: Meta;
}

/** The client's answer to `roots/list`. */
export interface ListRootsResult {
  readonly roots: readonly Root[];
  readonly _meta?: Meta;
}
