import { IsString, MaxLength } from 'class-validator';

export class EchoArgs {
  @IsString()
  @MaxLength(1000)
  text!: string;
}
