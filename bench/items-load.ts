import type { Agent } from 'node:http';
import { keepAliveAgent, send } from './http-client.js';
import { ItemsChild } from './items-child.js';
import { TargetLoad, type LoadFigures, type LoadRequest, type LoadSettings } from './load.js';
import { ECHO_BODY, ECHO_TEXT, openSession, sampleEcho, sessionHeaders } from './mcp-client.js';
import {
  ITEM_OPERATIONS,
  ITEM_TOPICS,
  ITEMS_FIXTURE,
  lastTemplateUri,
  TEMPLATE_COUNTS,
  type ItemOperation,
} from './targets.js';

/** Answers each request is checked against before any load: they must all be the same. */
const SAMPLES = 5;

export interface ItemLoadFigures extends LoadFigures {
  /** CPU (user + system) the server's process spent per request while under load. */
  readonly cpuMicrosPerRequest: number;
}

export interface TemplateFigures {
  readonly count: number;
  /** CPU of NestFactory.create + listen in the server's process. */
  readonly bootCpuMs: number;
  /** In-process medians: one resolution of the URI only the last template matches, compiling and registering every template. */
  readonly resolveMicros: number;
  readonly compileMs: number;
  readonly registerMs: number;
  /** resources/read of that URI over HTTP. */
  readonly load: ItemLoadFigures;
}

export interface ItemsFigures {
  readonly fixtureBootCpuMs: number;
  readonly operations: ReadonlyMap<ItemOperation, ItemLoadFigures>;
  readonly templates: readonly TemplateFigures[];
}

const request = (method: string, params: object): string => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });

/** What each operation sends, and what the result of each must be. */
const OPERATIONS: Record<ItemOperation, { readonly body: string; readonly result?: unknown }> = {
  echo: { body: ECHO_BODY }, // checked by sampleEcho
  resource: {
    body: request('resources/read', { uri: ITEMS_FIXTURE.resourceUri }),
    result: {
      contents: [{ uri: ITEMS_FIXTURE.resourceUri, mimeType: 'text/plain', text: ITEMS_FIXTURE.resourceText }],
    },
  },
  template: {
    body: request('resources/read', { uri: ITEMS_FIXTURE.templateUri }),
    result: {
      contents: [
        {
          uri: ITEMS_FIXTURE.templateUri,
          mimeType: 'application/json',
          text: JSON.stringify({ id: 42, name: 'item 42' }),
        },
      ],
    },
  },
  prompt: {
    body: request('prompts/get', { name: ITEMS_FIXTURE.prompt, arguments: ITEMS_FIXTURE.promptArguments }),
    result: {
      description: 'Asks for a summary of a topic',
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text: `Write a ${ITEMS_FIXTURE.promptArguments.style} summary of ${ITEMS_FIXTURE.promptArguments.topic}.`,
          },
        },
      ],
    },
  },
  // The same text as echo, from a controller route run through the HTTP handler: what serving an existing route costs.
  route: {
    body: request('tools/call', { name: 'route_echo', arguments: { text: ECHO_TEXT } }),
    result: {
      content: [{ type: 'text', text: JSON.stringify({ text: ECHO_TEXT }) }],
      structuredContent: { text: ECHO_TEXT },
    },
  },
  completion: {
    body: request('completion/complete', {
      ref: { type: 'ref/prompt', name: ITEMS_FIXTURE.prompt },
      argument: { name: 'topic', value: ITEMS_FIXTURE.completionPrefix },
    }),
    result: {
      completion: {
        values: ITEM_TOPICS.filter((topic) => topic.startsWith(ITEMS_FIXTURE.completionPrefix)),
        total: 20,
        hasMore: false,
      },
    },
  },
};

const templateReadBody = (count: number): string => request('resources/read', { uri: lastTemplateUri(count) });

const templateReadResult = (count: number): unknown => ({
  contents: [
    {
      uri: lastTemplateUri(count),
      mimeType: 'application/json',
      text: JSON.stringify({ template: count - 1, id: 42 }),
    },
  ],
});

/** Keys in a fixed order, so that results compare whatever order the server wrote them in. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}

/**
 * Sends `body` SAMPLES times and checks every answer is the JSON-RPC result `result`, the same bytes
 * each time. @returns those bytes, so the load can count any response that differs.
 */
async function sampleResult(
  agent: Agent,
  url: string,
  headers: Record<string, string>,
  body: string,
  result: unknown,
): Promise<string> {
  let answer: string | undefined;
  for (let sample = 0; sample < SAMPLES; sample++) {
    const reply = await send(agent, 'POST', url, headers, body);
    const fail = (why: string): never => {
      throw new Error(`${body} answered ${why}: ${reply.status} ${reply.body.slice(0, 400)}`);
    };
    if (reply.status !== 200 || !String(reply.headers['content-type']).startsWith('application/json')) fail('badly');
    const message = JSON.parse(reply.body) as { jsonrpc?: unknown; id?: unknown; result?: unknown };
    if (message.jsonrpc !== '2.0' || message.id !== 1) fail('with another envelope');
    if (canonical(message.result) !== canonical(result)) fail(`not with ${JSON.stringify(result)}`);
    if (answer !== undefined && reply.body !== answer) fail('differently between calls');
    answer = reply.body;
  }
  return answer!;
}

/** One repeated request on one server: a {@link TargetLoad}, with the server's CPU time read around each slice. */
class ItemLoad {
  private readonly load: TargetLoad;
  private cpuMicros = 0;

  constructor(
    private readonly child: ItemsChild,
    request: LoadRequest,
    settings: LoadSettings,
    warmupSeconds: number,
  ) {
    this.load = new TargetLoad(request, { ...settings, warmupSeconds });
  }

  warmUp(): Promise<void> {
    return this.load.warmUp();
  }

  async measure(seconds: number): Promise<void> {
    const before = await this.child.cpuMicros();
    await this.load.measure(seconds);
    this.cpuMicros += (await this.child.cpuMicros()) - before;
  }

  figures(): ItemLoadFigures {
    const figures = this.load.figures();
    return { ...figures, cpuMicrosPerRequest: this.cpuMicros / figures.requests };
  }
}

const took = (since: number): string => `${((performance.now() - since) / 1000).toFixed(1)} s`;

/**
 * A fresh server process spends about three times the CPU per request in its first second or two of
 * load (measured here: its code is still being optimised). The first load on each process therefore
 * warms up this many times longer; the later ones share the code it warmed.
 */
const FIRST_WARMUP_FACTOR = 2;

/** A session on `child`, and each request's checked answer: the loads, the first warming up the process. */
async function prepareLoads(
  child: ItemsChild,
  bodies: readonly { readonly body: string; readonly result?: unknown }[],
  settings: LoadSettings,
): Promise<ItemLoad[]> {
  const agent = keepAliveAgent();
  try {
    const headers = sessionHeaders(await openSession(agent, child.url));
    const loads: ItemLoad[] = [];
    for (const { body, result } of bodies) {
      const expectBody =
        result === undefined
          ? await sampleEcho(agent, child.url, headers)
          : await sampleResult(agent, child.url, headers, body, result);
      const warmupSeconds = settings.warmupSeconds * (loads.length === 0 ? FIRST_WARMUP_FACTOR : 1);
      loads.push(new ItemLoad(child, { url: child.url, headers, body, expectBody }, settings, warmupSeconds));
    }
    return loads;
  } finally {
    agent.destroy();
  }
}

/**
 * Resources, templates, prompts and completion against one fixture server, next to the echo call;
 * then resources/read on servers of TEMPLATE_COUNTS templates, where only the last template matches
 * the URI read. Every server runs in its own process, started one after the other (their bootstrap CPU
 * is reported) and all kept up; the measured time is split into rounds in which every load takes a
 * turn, as in the load part. The template servers then time compiling, registering and resolving
 * their templates in-process.
 */
export async function runItems(settings: LoadSettings, log: (line: string) => void): Promise<ItemsFigures> {
  const children: ItemsChild[] = [];
  try {
    const booting = performance.now();
    const fixture = await ItemsChild.start({ kind: 'fixture' });
    children.push(fixture);
    const templateChildren: ItemsChild[] = [];
    for (const count of TEMPLATE_COUNTS) {
      const child = await ItemsChild.start({ kind: 'templates', count });
      children.push(child);
      templateChildren.push(child);
    }
    log(`items       ${children.length} servers started (${took(booting)})`);

    const operations = Object.keys(ITEM_OPERATIONS) as ItemOperation[];
    const operationLoads = await prepareLoads(
      fixture,
      operations.map((operation) => OPERATIONS[operation]),
      settings,
    );
    const templateLoads: ItemLoad[] = [];
    for (const [index, count] of TEMPLATE_COUNTS.entries()) {
      const body = templateReadBody(count);
      templateLoads.push(
        ...(await prepareLoads(templateChildren[index]!, [{ body, result: templateReadResult(count) }], settings)),
      );
    }
    const labels = [
      ...operations.map((operation) => ITEM_OPERATIONS[operation]),
      ...TEMPLATE_COUNTS.map((count) => `resources/read, ${count} template${count === 1 ? '' : 's'}`),
    ];
    const loads = [...operationLoads, ...templateLoads];
    for (let round = 0; round < settings.rounds; round++) {
      for (const [index, load] of loads.entries()) {
        const started = performance.now();
        if (round === 0) await load.warmUp();
        await load.measure(settings.durationSeconds / settings.rounds);
        log(`items round ${round + 1}/${settings.rounds}  ${labels[index]} (${took(started)})`);
      }
    }

    const templates: TemplateFigures[] = [];
    for (const [index, count] of TEMPLATE_COUNTS.entries()) {
      const child = templateChildren[index]!;
      templates.push({
        count,
        bootCpuMs: child.bootCpuMs,
        ...(await child.profile()),
        load: templateLoads[index]!.figures(),
      });
    }
    return {
      fixtureBootCpuMs: fixture.bootCpuMs,
      operations: new Map(operations.map((operation, index) => [operation, operationLoads[index]!.figures()])),
      templates,
    };
  } finally {
    await Promise.all(children.map((child) => child.stop()));
  }
}
