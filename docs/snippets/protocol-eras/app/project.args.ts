import { IsString, Length } from 'class-validator';

export class ProjectArgs {
  @IsString()
  @Length(1, 60)
  id!: string;
}
