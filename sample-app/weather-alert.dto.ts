import { ApiProperty } from '@nestjs/swagger';

/** The answer of `POST /api/alerts` (201), as `@nestjs/swagger` documents it. */
export class WeatherAlertDto {
  @ApiProperty({ description: 'Alert id (a UUID)', format: 'uuid' })
  id!: string;

  @ApiProperty({ description: 'The city the alert is about' })
  city!: string;

  @ApiProperty({ description: 'What the alert says' })
  message!: string;

  @ApiProperty({ description: 'When it was created (ISO 8601)', format: 'date-time' })
  createdAt!: string;
}
