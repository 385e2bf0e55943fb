import { IsString, Length } from 'class-validator';
import { McpParamHeader } from 'mcp42';

// #region dto
export class SearchArgs {
  // 2026-07-28 clients send this argument again as the header Mcp-Param-Region; mcp42 checks that
  // both say the same (400, -32020 otherwise), so a gateway may route on the header alone.
  @IsString()
  @McpParamHeader('Region')
  region!: string;

  @IsString()
  @Length(1, 200)
  query!: string;
}
// #endregion dto
