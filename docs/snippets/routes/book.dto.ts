import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsEnum, IsInt, IsOptional, Max, Min } from 'class-validator';

// #region dtos
export enum Genre {
  Novel = 'novel',
  Poetry = 'poetry',
}

// class-validator says what the route accepts; swagger says what it means.
export class BookQuery {
  @ApiPropertyOptional({ enum: Genre, description: 'Only books of this genre' })
  @IsOptional()
  @IsEnum(Genre)
  genre?: Genre;

  @ApiPropertyOptional({ description: 'At most this many books', example: 10 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(50)
  limit?: number;
}

// A response type: swagger only. It becomes the tool's output schema.
export class Book {
  @ApiProperty({ description: 'Book id', example: 1 })
  id!: number;

  @ApiProperty({ description: 'Title', example: 'Dune' })
  title!: string;

  @ApiProperty({ enum: Genre })
  genre!: Genre;
}
// #endregion dtos
