import { Injectable } from '@nestjs/common';
import { IsInt, IsString, Length, Max, Min } from 'class-validator';
import { McpTool, McpToolError, McpToolRegistry } from 'mcp42';

/** The tool's arguments: a class-validator DTO, so its JSON Schema and its checks come from the app's decorators. */
export class EchoArgs {
  @IsString()
  @Length(1, 100)
  text: string;

  @IsInt()
  @Min(1)
  @Max(3)
  times: number;
}

@Injectable()
export class EchoTools {
  /** The library's own class as a DI token: it resolves only if the app and mcp42 share one copy. */
  constructor(readonly registry: McpToolRegistry) {}

  @McpTool({ name: 'echo', description: 'Repeats the text', input: EchoArgs })
  echo(args: EchoArgs): string {
    // Nest 11 once handed tools undefined arguments; a DTO that is not an EchoArgs would mean another copy.
    if (!(args instanceof EchoArgs)) throw new McpToolError(`arguments are not an EchoArgs: ${JSON.stringify(args)}`);
    return Array.from({ length: args.times }, () => args.text).join(' ');
  }
}
