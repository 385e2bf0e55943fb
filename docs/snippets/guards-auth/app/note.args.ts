import { IsString, Length } from 'class-validator';

export class NoteArgs {
  @IsString()
  @Length(1, 40)
  id!: string;
}
