import { Injectable } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { McpTool, McpToolError, type McpContext } from 'mcp42';

const REGIONS = ['North', 'South', 'East', 'West'];

// #region optional
@Injectable()
export class ReportTools {
  @McpTool({
    name: 'build_sales_report',
    description: 'Builds the quarterly sales report (a few seconds per region)',
    input: { type: 'object', properties: { quarter: { type: 'string' } }, required: ['quarter'] },
    // A task for clients that can take one; a plain call, with the same result, for the others.
    task: 'optional',
  })
  async build({ quarter }: { quarter: string }, ctx: McpContext): Promise<string> {
    for (const [index, region] of REGIONS.entries()) {
      // In a task, this becomes its statusMessage (`tasks/get`).
      ctx.reportProgress({ progress: index, total: REGIONS.length, message: `Adding ${region}` });
      // Rejects on tasks/cancel (or on the call's own cancellation, timeout, session end).
      await sleep(50, undefined, { signal: ctx.signal });
    }
    return `Sales report ${quarter}: ${REGIONS.length} regions`;
  }
}
// #endregion optional

// #region required
@Injectable()
export class ArchiveTools {
  @McpTool({
    name: 'archive_mailbox',
    description: 'Archives a mailbox after the user confirms (always a task: it can take hours)',
    input: { type: 'object', properties: { mailbox: { type: 'string' } }, required: ['mailbox'] },
    task: 'required',
  })
  async archive({ mailbox }: { mailbox: string }, ctx: McpContext): Promise<string> {
    // In a 2026-07-28 task, the task waits in input_required until the client answers (tasks/update).
    const answer = await ctx.elicit({
      message: `Archive ${mailbox}? It cannot be undone.`,
      requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
    });
    if (answer.action !== 'accept' || answer.content?.confirm !== true) {
      throw new McpToolError(`${mailbox} was not archived`);
    }
    await sleep(100, undefined, { signal: ctx.signal });
    return `${mailbox} archived`;
  }
}
// #endregion required

// #region start-in-handler
@Injectable()
export class ImportTools {
  @McpTool({
    name: 'import_contacts',
    description: 'Imports contacts from a file the user names, then works in the background',
    task: { support: 'required', start: 'handler' },
  })
  async import(_args: object, ctx: McpContext): Promise<string> {
    // Asked in the request itself (multi round-trip): the task does not exist yet.
    const answer = await ctx.elicit(
      {
        message: 'Which file?',
        requestedSchema: { type: 'object', properties: { file: { type: 'string' } }, required: ['file'] },
      },
      { key: 'file' },
    );
    // The request is answered with the task; the handler runs again inside it, `file` answered at once.
    await ctx.startTask();
    await sleep(100, undefined, { signal: ctx.signal });
    return `Imported ${String(answer.content?.file)}`;
  }
}
// #endregion start-in-handler
