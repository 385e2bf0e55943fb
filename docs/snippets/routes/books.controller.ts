import {
  Controller,
  Delete,
  Get,
  NotFoundException,
  Param,
  ParseIntPipe,
  Query,
  UsePipes,
  ValidationPipe,
} from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { McpRoute } from 'mcp42';
import { Book, BookQuery, Genre } from './book.dto.js';

const BOOKS: Book[] = [
  { id: 1, title: 'Dune', genre: Genre.Novel },
  { id: 2, title: 'Odes', genre: Genre.Poetry },
];

// #region controller
@ApiTags('books')
@McpRoute() // the controller's GET (and HEAD) routes become tools; `methods` chooses others
@Controller('api/books')
@UsePipes(new ValidationPipe({ transform: true, whitelist: true, forbidNonWhitelisted: true }))
export class BooksController {
  // Tool `list_books` (the method's name in snake_case), described by its operation.
  // Output: { result: Book[] } (structured content is an object: an array body is wrapped).
  @ApiOperation({ summary: 'Lists books', description: 'Oldest first.' })
  @ApiOkResponse({ type: [Book] })
  @Get()
  listBooks(@Query() query: BookQuery): Book[] {
    return BOOKS.filter((book) => query.genre === undefined || book.genre === query.genre).slice(0, query.limit);
  }

  // Tool `get_book` (the operationId). Input: { id: integer, described }. Output: Book's schema.
  @ApiOperation({ summary: 'One book by its id', operationId: 'get_book' })
  @ApiParam({ name: 'id', description: 'Book id, from list_books' })
  @ApiOkResponse({ type: Book })
  @Get(':id')
  findOne(@Param('id', ParseIntPipe) id: number): Book {
    const book = BOOKS.find((candidate) => candidate.id === id);
    if (!book) throw new NotFoundException(`No book ${id}`); // the tool's error text
    return book;
  }

  // A GET route agents should not call: left out.
  @McpRoute({ exclude: true })
  @Get('export/csv')
  exportCsv(): string {
    return BOOKS.map((book) => `${book.id},${book.title}`).join('\n');
  }

  // Not GET: not a tool, unless it gets its own @McpRoute().
  @Delete(':id')
  remove(@Param('id', ParseIntPipe) id: number): { removed: number } {
    return { removed: id };
  }
}
// #endregion controller
