import { Injectable } from '@nestjs/common';
import { IsString } from 'class-validator';
import { McpTool, type McpContext } from '../../src/index.js';

const delay = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

class SamplingArgs {
  @IsString()
  prompt!: string;
}

class ElicitationArgs {
  @IsString()
  message!: string;
}

/**
 * The conformance scenarios that need the server to talk back during a call: logging, progress,
 * sampling, elicitation, and SSE polling (a stream closed mid-call and resumed).
 */
@Injectable()
export class ConformanceInteractionTools {
  @McpTool({ name: 'test_tool_with_logging', description: 'Tests tool that emits log messages during execution' })
  async withLogging(_args: object, ctx: McpContext): Promise<string> {
    ctx.log.info('Tool execution started');
    await delay(50, ctx.signal);
    ctx.log.info('Tool processing data');
    await delay(50, ctx.signal);
    ctx.log.info('Tool execution completed');
    return 'Tool with logging executed successfully';
  }

  @McpTool({ name: 'test_tool_with_progress', description: 'Tests tool that reports progress notifications' })
  async withProgress(_args: object, ctx: McpContext): Promise<string> {
    for (const progress of [0, 50, 100]) {
      ctx.reportProgress({ progress, total: 100, message: `Completed step ${progress / 50 + 1} of 3` });
      if (progress < 100) await delay(50, ctx.signal);
    }
    return String(ctx.meta?.progressToken ?? 'no progress token');
  }

  @McpTool({
    name: 'test_sampling',
    description: 'Tests server-initiated sampling (LLM completion request)',
    input: SamplingArgs,
  })
  async sampling(args: SamplingArgs, ctx: McpContext): Promise<string> {
    const result = await ctx.sample({
      messages: [{ role: 'user', content: { type: 'text', text: args.prompt } }],
      maxTokens: 100,
    });
    const content = result.content as { type?: string; text?: string };
    return `LLM response: ${content.type === 'text' ? content.text : JSON.stringify(result.content)}`;
  }

  @McpTool({
    name: 'test_elicitation',
    description: 'Tests server-initiated elicitation (user input request)',
    input: ElicitationArgs,
  })
  async elicitation(args: ElicitationArgs, ctx: McpContext): Promise<string> {
    const result = await ctx.elicit({
      message: args.message,
      requestedSchema: {
        type: 'object',
        properties: {
          username: { type: 'string', description: "User's response" },
          email: { type: 'string', description: "User's email address" },
        },
        required: ['username', 'email'],
      },
    });
    return `User response: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`;
  }

  @McpTool({
    name: 'test_elicitation_sep1034_defaults',
    description: 'Tests elicitation with default values per SEP-1034',
  })
  async elicitationDefaults(_args: object, ctx: McpContext): Promise<string> {
    const result = await ctx.elicit({
      message: 'Please review and update the form fields with defaults',
      requestedSchema: {
        type: 'object',
        properties: {
          name: { type: 'string', description: 'User name', default: 'John Doe' },
          age: { type: 'integer', description: 'User age', default: 30 },
          score: { type: 'number', description: 'User score', default: 95.5 },
          status: {
            type: 'string',
            description: 'User status',
            enum: ['active', 'inactive', 'pending'],
            default: 'active',
          },
          verified: { type: 'boolean', description: 'Verification status', default: true },
        },
        required: [],
      },
    });
    return `Elicitation completed: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`;
  }

  @McpTool({
    name: 'test_elicitation_sep1330_enums',
    description: 'Tests elicitation with enum schema improvements per SEP-1330',
  })
  async elicitationEnums(_args: object, ctx: McpContext): Promise<string> {
    const result = await ctx.elicit({
      message: 'Please select options from the enum fields',
      requestedSchema: {
        type: 'object',
        properties: {
          untitledSingle: { type: 'string', description: 'Select one option', enum: ['option1', 'option2', 'option3'] },
          titledSingle: {
            type: 'string',
            description: 'Select one option with titles',
            oneOf: [
              { const: 'value1', title: 'First Option' },
              { const: 'value2', title: 'Second Option' },
              { const: 'value3', title: 'Third Option' },
            ],
          },
          legacyEnum: {
            type: 'string',
            description: 'Select one option (legacy)',
            enum: ['opt1', 'opt2', 'opt3'],
            enumNames: ['Option One', 'Option Two', 'Option Three'],
          },
          untitledMulti: {
            type: 'array',
            description: 'Select multiple options',
            minItems: 1,
            maxItems: 3,
            items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
          },
          titledMulti: {
            type: 'array',
            description: 'Select multiple options with titles',
            minItems: 1,
            maxItems: 3,
            items: {
              anyOf: [
                { const: 'value1', title: 'First Choice' },
                { const: 'value2', title: 'Second Choice' },
                { const: 'value3', title: 'Third Choice' },
              ],
            },
          },
        },
        required: [],
      },
    });
    return `Elicitation completed: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`;
  }

  @McpTool({
    name: 'test_reconnection',
    description: 'Closes its SSE stream mid-call; the client resumes with Last-Event-ID and gets the result',
  })
  async reconnection(_args: object, ctx: McpContext): Promise<string> {
    ctx.closeConnection(100);
    await delay(300, ctx.signal);
    return 'Reconnection test completed successfully';
  }
}
