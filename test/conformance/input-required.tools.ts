import { Injectable } from '@nestjs/common';
import { McpPrompt, McpTool, type McpContext } from '../../src/index.js';

const NAME_FORM = {
  message: 'What is your name?',
  requestedSchema: { type: 'object' as const, properties: { name: { type: 'string' as const } }, required: ['name'] },
};
const CONFIRM_FORM = {
  message: 'Please confirm',
  requestedSchema: { type: 'object' as const, properties: { ok: { type: 'boolean' as const } }, required: ['ok'] },
};

/**
 * The tools (and the prompt) of the 2026-07-28 `input-required-result-*` scenarios (MRTR,
 * SEP-2322). Each is an ordinary handler that asks with `ctx.elicit`, `ctx.sample` and
 * `ctx.listRoots`; the keys are the ones the scenarios answer.
 */
@Injectable()
export class ConformanceInputRequiredTools {
  @McpTool({ name: 'test_input_required_result_elicitation', description: 'Asks for the user name (MRTR)' })
  async elicitation(_args: object, ctx: McpContext): Promise<string> {
    const answer = await ctx.elicit(NAME_FORM, { key: 'user_name' });
    return `Hello, ${String(answer.content?.name)}!`;
  }

  @McpTool({ name: 'test_input_required_result_sampling', description: 'Asks the client model a question (MRTR)' })
  async sampling(_args: object, ctx: McpContext): Promise<string> {
    const answer = await ctx.sample(
      {
        messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }],
        maxTokens: 100,
      },
      { key: 'capital_question' },
    );
    return `The model said: ${JSON.stringify(answer.content)}`;
  }

  @McpTool({ name: 'test_input_required_result_list_roots', description: 'Asks the client for its roots (MRTR)' })
  async listRoots(_args: object, ctx: McpContext): Promise<string> {
    const { roots } = await ctx.listRoots({ key: 'client_roots' });
    return `Roots: ${roots.map((root) => root.uri).join(', ')}`;
  }

  @McpTool({
    name: 'test_input_required_result_request_state',
    description: 'Keeps a value of its own across rounds in the sealed requestState (MRTR)',
  })
  async requestState(_args: object, ctx: McpContext): Promise<string> {
    const token = await ctx.once('token', () => 'state-ok');
    const answer = await ctx.elicit(CONFIRM_FORM, { key: 'confirm' });
    return `${token}: confirmed=${String(answer.content?.ok)}`;
  }

  @McpTool({
    name: 'test_input_required_result_multiple_inputs',
    description: 'Asks for elicitation, sampling and roots in one round (MRTR)',
  })
  async multipleInputs(_args: object, ctx: McpContext): Promise<string> {
    await ctx.once('started', () => Date.now());
    const [name, greeting, roots] = await Promise.all([
      ctx.elicit(NAME_FORM, { key: 'user_name' }),
      ctx.sample(
        { messages: [{ role: 'user', content: { type: 'text', text: 'Say hello' } }], maxTokens: 50 },
        { key: 'greeting' },
      ),
      ctx.listRoots({ key: 'client_roots' }),
    ]);
    return `name=${String(name.content?.name)} greeting=${JSON.stringify(greeting.content)} roots=${roots.roots.length}`;
  }

  @McpTool({ name: 'test_input_required_result_multi_round', description: 'Asks two questions, one round each (MRTR)' })
  async multiRound(_args: object, ctx: McpContext): Promise<string> {
    const name = await ctx.elicit(NAME_FORM, { key: 'step1' });
    const color = await ctx.elicit(
      {
        message: `Hello ${String(name.content?.name)}, what is your favourite colour?`,
        requestedSchema: { type: 'object', properties: { color: { type: 'string' } }, required: ['color'] },
      },
      { key: 'step2' },
    );
    return `${String(name.content?.name)} likes ${String(color.content?.color)}`;
  }

  @McpTool({
    name: 'test_input_required_result_tampered_state',
    description: 'Carries sealed state: a tampered requestState is refused (MRTR)',
  })
  async tamperedState(_args: object, ctx: McpContext): Promise<string> {
    await ctx.once('nonce', () => Math.random().toString(36).slice(2));
    const answer = await ctx.elicit(CONFIRM_FORM, { key: 'confirm' });
    return `confirmed=${String(answer.content?.ok)}`;
  }

  @McpTool({
    name: 'test_input_required_result_capabilities',
    description: 'Asks only for what the request declared it can answer (MRTR)',
  })
  async capabilities(_args: object, ctx: McpContext): Promise<string> {
    const { clientCapabilities: declared } = ctx;
    const asked: Promise<unknown>[] = [];
    if (declared.elicitation) asked.push(ctx.elicit(NAME_FORM, { key: 'user_name' }));
    if (declared.sampling) {
      asked.push(
        ctx.sample(
          { messages: [{ role: 'user', content: { type: 'text', text: 'Say hello' } }], maxTokens: 50 },
          { key: 'greeting' },
        ),
      );
    }
    if (declared.roots) asked.push(ctx.listRoots({ key: 'client_roots' }));
    const answers = await Promise.all(asked);
    return `Got ${answers.length} answer(s)`;
  }

  @McpPrompt({ name: 'test_input_required_result_prompt', description: 'A prompt that asks for context first (MRTR)' })
  async prompt(_args: object, ctx: McpContext): Promise<string> {
    const answer = await ctx.elicit(
      {
        message: 'What context should the prompt use?',
        requestedSchema: { type: 'object', properties: { context: { type: 'string' } }, required: ['context'] },
      },
      { key: 'user_context' },
    );
    return `Use this context: ${String(answer.content?.context)}`;
  }
}
