import { IsString, Length } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';

/** The body of `POST /api/alerts`. */
export class CreateAlertDto {
  @JSONSchema({ description: 'City the alert is about, e.g. "Lisbon"' })
  @IsString()
  @Length(1, 100)
  city!: string;

  @JSONSchema({ description: 'What the alert says, up to 500 characters' })
  @IsString()
  @Length(1, 500)
  message!: string;
}
