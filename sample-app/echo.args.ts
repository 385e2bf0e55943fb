import { IsNotEmpty, IsString } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';

export class EchoArgs {
  @JSONSchema({ description: 'The text to send back' })
  @IsString()
  @IsNotEmpty()
  text!: string;
}
