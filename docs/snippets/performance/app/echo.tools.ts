import { Injectable } from '@nestjs/common';
import { McpTool } from 'mcp42';
import { EchoArgs } from './echo.args.js';

@Injectable()
export class EchoTools {
  @McpTool({ name: 'echo', description: 'Returns its text', input: EchoArgs })
  echo({ text }: EchoArgs): string {
    return text;
  }
}
