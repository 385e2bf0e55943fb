import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { Subscription } from 'rxjs';
import { SessionStore } from '../session/session.store.js';
import { TaskService } from './task.service.js';

/**
 * Ends the tasks of a 2025 session with the session (DELETE, idle timeout, overflow): tasks made
 * without a principal belong to the session alone, and nobody could ask for them afterwards, so
 * they are cancelled and forgotten. A principal's tasks outlive its sessions (the specification
 * binds tasks to the authorization context): another session of the principal reads them.
 */
@Injectable()
export class TaskSessionEnds implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('McpTasks');
  private subscription: Subscription | undefined;

  constructor(
    private readonly sessions: SessionStore,
    private readonly tasks: TaskService,
  ) {}

  onModuleInit(): void {
    this.subscription = this.sessions.ended.subscribe((sessionId) => {
      this.tasks.sessionEnded(sessionId).catch((error: unknown) => {
        this.logger.error(
          `The tasks of session ${sessionId} could not be ended`,
          error instanceof Error ? error.stack : String(error),
        );
      });
    });
  }

  onModuleDestroy(): void {
    this.subscription?.unsubscribe();
  }
}
