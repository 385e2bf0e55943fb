import { Injectable, UseGuards } from '@nestjs/common';
import { McpScopes, McpTool } from 'mcp42';
import { LargeTransferGuard } from './large-transfer.guard.js';
import { TransferArgs } from './transfer.args.js';

@Injectable()
export class PaymentTools {
  // #region tool
  @McpScopes('payments:write')
  @UseGuards(LargeTransferGuard)
  @McpTool({ name: 'transfer', description: 'Transfers money to an account', input: TransferArgs })
  transfer({ to, amountCents }: TransferArgs): string {
    return `Sent ${(amountCents / 100).toFixed(2)} to ${to}`;
  }
  // #endregion tool
}
