import { Module } from '@nestjs/common';
import { ApplicationBudget } from './application-budget.js';

/**
 * Holds what the MCP servers of one application share. Static on purpose: Nest instantiates a
 * static module once per application however many dynamic `McpModule`s import it, and never
 * across applications.
 */
@Module({ providers: [ApplicationBudget], exports: [ApplicationBudget] })
export class ApplicationBudgetModule {}
