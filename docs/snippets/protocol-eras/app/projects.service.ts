import { Injectable } from '@nestjs/common';

/** The application's own service, standing in for a database. */
@Injectable()
export class ProjectsService {
  private readonly files = new Map([['apollo', 12]]);

  countFiles(id: string): number {
    return this.files.get(id) ?? 0;
  }

  delete(id: string): void {
    this.files.delete(id);
  }
}
