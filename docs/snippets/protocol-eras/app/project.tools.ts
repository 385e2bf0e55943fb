import { Injectable } from '@nestjs/common';
import { McpTool, type McpContext } from 'mcp42';
import { CONFIRM } from './confirm.js';
import { ProjectArgs } from './project.args.js';
import { ProjectsService } from './projects.service.js';

// #region tool
@Injectable()
export class ProjectTools {
  constructor(private readonly projects: ProjectsService) {}

  @McpTool({ name: 'delete_project', description: 'Deletes a project after confirmation', input: ProjectArgs })
  async deleteProject({ id }: ProjectArgs, ctx: McpContext): Promise<string> {
    // On 2026-07-28 the handler runs again on every round; once() runs this in the first round only
    // and carries its value, sealed, in requestState. On a 2025 session it simply runs.
    const count = await ctx.once('files', () => this.projects.countFiles(id));
    // 2025: an elicitation/create request to the client. 2026-07-28: the round ends with
    // input_required, and this returns the answer when the client retries with it.
    const answer = await ctx.elicit(
      { message: `Delete ${id} and its ${count} files?`, requestedSchema: CONFIRM },
      { key: 'confirm' },
    );
    if (answer.action !== 'accept' || answer.content?.confirm !== true) return 'Kept';
    this.projects.delete(id);
    return 'Deleted';
  }
}
// #endregion tool
