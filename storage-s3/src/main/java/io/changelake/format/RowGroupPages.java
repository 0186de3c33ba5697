package io.changelake.format;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DataPageV2;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.compression.CompressionCodecFactory.BytesInputDecompressor;
import org.apache.parquet.format.DataPageHeader;
import org.apache.parquet.format.DataPageHeaderV2;
import org.apache.parquet.format.DictionaryPageHeader;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.Util;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * The pages of some columns of one row group, as {@link DecodedColumnChunk} and Parquet's column
 * readers take them ({@link PageReadStore}).
 *
 * <p>The columns' chunks are fetched when the row group is opened, chunks that follow one another
 * in the file in one read (on S3, one request for a row group's columns, as Parquet's own reader
 * does). Each page is decompressed when its column reaches it, so a column opened but never read
 * costs no decompression. Pages carry no statistics: nothing here reads them.
 */
final class RowGroupPages implements PageReadStore {

  private final long rowCount;
  private final Map<List<String>, ChunkPages> columns = new HashMap<>();

  /**
   * Fetches the chunks of {@code requested} in {@code group} from {@code in}.
   *
   * @param file the file's name, for messages
   */
  RowGroupPages(
      ObjectInputFile.Stream in,
      ParquetFooter.RowGroup group,
      ColumnDescriptor[] requested,
      PageDecompression decompression,
      String file)
      throws IOException {
    this.rowCount = group.rowCount();
    List<Located> byOffset = new ArrayList<>();
    for (ColumnDescriptor column : requested) {
      byOffset.add(new Located(column, group.chunk(column, file)));
    }
    byOffset.sort(Comparator.comparingLong(located -> located.chunk().start()));
    int i = 0;
    while (i < byOffset.size()) {
      // A run of chunks, each starting where the one before it ends.
      long start = byOffset.get(i).chunk().start();
      long end = start + byOffset.get(i).chunk().size();
      int last = i;
      while (last + 1 < byOffset.size() && byOffset.get(last + 1).chunk().start() == end) {
        last++;
        end += byOffset.get(last).chunk().size();
      }
      in.seek(start);
      byte[] bytes = in.readBytes(Math.toIntExact(end - start));
      for (Located located : byOffset.subList(i, last + 1)) {
        String[] path = located.column().getPath();
        ParquetFooter.Chunk chunk = located.chunk();
        columns.put(
            Arrays.asList(path),
            new ChunkPages(
                bytes,
                (int) (chunk.start() - start),
                (int) chunk.size(),
                chunk,
                decompression,
                file + " column " + String.join(".", path)));
      }
      i = last + 1;
    }
  }

  /** A requested column and its chunk, looked up once. */
  private record Located(ColumnDescriptor column, ParquetFooter.Chunk chunk) {}

  @Override
  public PageReader getPageReader(ColumnDescriptor column) {
    return fetched(column);
  }

  /**
   * The pages of {@code column} for a reader done with each data page before it asks for the next,
   * keeping nothing that points into it: a data page may then be decompressed into the array of the
   * one before. Dictionary pages always get an array of their own.
   */
  PageReader getTransientPageReader(ColumnDescriptor column) {
    ChunkPages pages = fetched(column);
    pages.reuseOutput = true;
    return pages;
  }

  /** The encodings the footer lists for the chunk of a fetched column. */
  Set<Encoding> encodings(ColumnDescriptor column) {
    return fetched(column).chunk.encodings();
  }

  private ChunkPages fetched(ColumnDescriptor column) {
    ChunkPages pages = columns.get(Arrays.asList(column.getPath()));
    if (pages == null) {
      throw new IllegalArgumentException("column " + column + " was not fetched");
    }
    return pages;
  }

  @Override
  public long getRowCount() {
    return rowCount;
  }

  /** The pages of one column chunk, parsed one page header at a time. */
  private static final class ChunkPages implements PageReader {
    private final byte[] bytes;
    private final int end;
    private final ParquetFooter.Chunk chunk;
    private final PageDecompression decompression;
    private final String name;
    private int position;
    private long valuesRead;
    private DictionaryPage dictionary;
    private BytesInputDecompressor decompressor;

    /** Whether data pages may share one output array ({@link #getTransientPageReader}). */
    private boolean reuseOutput;

    /** The decompressor of data pages when {@link #reuseOutput}; null until one needs it. */
    private BytesInputDecompressor transientDecompressor;

    /**
     * The header of the chunk's first page when {@link #readDictionaryPage} found no dictionary
     * there, {@link #position} already past it: the next {@link #readPage} starts from it rather
     * than parse it again.
     */
    private PageHeader peeked;

    ChunkPages(
        byte[] bytes,
        int offset,
        int length,
        ParquetFooter.Chunk chunk,
        PageDecompression decompression,
        String name) {
      this.bytes = bytes;
      this.position = offset;
      this.end = offset + length;
      this.chunk = chunk;
      this.decompression = decompression;
      this.name = name;
    }

    @Override
    public DictionaryPage readDictionaryPage() {
      // The dictionary page, if any, is the chunk's first.
      if (dictionary == null && valuesRead == 0 && peeked == null && position < end) {
        PageHeader header = header();
        if (header.isSetDictionary_page_header()) {
          readDictionaryAt(header);
        } else {
          peeked = header;
        }
      }
      return dictionary;
    }

    @Override
    public long getTotalValueCount() {
      return chunk.valueCount();
    }

    @Override
    public DataPage readPage() {
      while (valuesRead < chunk.valueCount() && (peeked != null || position < end)) {
        PageHeader header = peeked != null ? peeked : header();
        peeked = null;
        if (header.isSetData_page_header()) {
          DataPageHeader page = header.getData_page_header();
          valuesRead += page.getNum_values();
          return new DataPageV1(
              body(header, true),
              page.getNum_values(),
              header.getUncompressed_page_size(),
              null,
              Encoding.valueOf(page.getRepetition_level_encoding().name()),
              Encoding.valueOf(page.getDefinition_level_encoding().name()),
              Encoding.valueOf(page.getEncoding().name()));
        }
        if (header.isSetData_page_header_v2()) {
          valuesRead += header.getData_page_header_v2().getNum_values();
          return pageV2(header);
        }
        if (header.isSetDictionary_page_header() && dictionary == null) {
          // A dictionary nobody asked for: a reader of plain pages never does.
          readDictionaryAt(header);
        } else {
          // An index page, or another kind a newer writer added: no values of this reader's.
          position += header.getCompressed_page_size();
        }
      }
      return null;
    }

    private void readDictionaryAt(PageHeader header) {
      DictionaryPageHeader page = header.getDictionary_page_header();
      dictionary =
          new DictionaryPage(
              body(header, false),
              header.getUncompressed_page_size(),
              page.getNum_values(),
              Encoding.valueOf(page.getEncoding().name()));
    }

    /** A v2 page: its levels are never compressed, its values are if the header says so. */
    private DataPage pageV2(PageHeader header) {
      DataPageHeaderV2 page = header.getData_page_header_v2();
      int repetitionLength = page.getRepetition_levels_byte_length();
      int definitionLength = page.getDefinition_levels_byte_length();
      int levels = repetitionLength + definitionLength;
      BytesInput repetition = BytesInput.from(bytes, position, repetitionLength);
      BytesInput definition = BytesInput.from(bytes, position + repetitionLength, definitionLength);
      int dataLength = header.getCompressed_page_size() - levels;
      BytesInput data = BytesInput.from(bytes, position + levels, dataLength);
      position += header.getCompressed_page_size();
      // is_compressed is true when the field is absent, as the format specifies.
      if (!page.isSetIs_compressed() || page.isIs_compressed()) {
        data = decompress(data, header.getUncompressed_page_size() - levels, true);
      }
      return DataPageV2.uncompressed(
          page.getNum_rows(),
          page.getNum_nulls(),
          page.getNum_values(),
          repetition,
          definition,
          Encoding.valueOf(page.getEncoding().name()),
          data,
          null);
    }

    private PageHeader header() {
      ByteArrayInputStream in = new ByteArrayInputStream(bytes, position, end - position);
      try {
        PageHeader header = Util.readPageHeader(in);
        position = end - in.available();
        if (header.getCompressed_page_size() < 0
            || header.getCompressed_page_size() > end - position) {
          throw new IOException(
              "a page claims "
                  + header.getCompressed_page_size()
                  + " bytes where "
                  + (end - position)
                  + " are left");
        }
        return header;
      } catch (IOException | RuntimeException e) {
        throw new UncheckedIOException(
            new IOException(name + " has a corrupt page header: " + e.getMessage(), e));
      }
    }

    /**
     * The page body after {@code header}, decompressed; moves past it.
     *
     * @param dataPage whether it is a data page, which may be decompressed into the array of the
     *     data page before ({@link #reuseOutput})
     */
    private BytesInput body(PageHeader header, boolean dataPage) {
      BytesInput compressed = BytesInput.from(bytes, position, header.getCompressed_page_size());
      position += header.getCompressed_page_size();
      return decompress(compressed, header.getUncompressed_page_size(), dataPage);
    }

    private BytesInput decompress(BytesInput compressed, int uncompressedSize, boolean dataPage) {
      if (chunk.codec() == CompressionCodecName.UNCOMPRESSED) {
        return compressed;
      }
      BytesInputDecompressor pages;
      if (dataPage && reuseOutput) {
        if (transientDecompressor == null) {
          transientDecompressor = decompression.getDecompressor(chunk.codec(), true);
        }
        pages = transientDecompressor;
      } else {
        if (decompressor == null) {
          decompressor = decompression.getDecompressor(chunk.codec());
        }
        pages = decompressor;
      }
      try {
        return pages.decompress(compressed, uncompressedSize);
      } catch (IOException e) {
        throw new UncheckedIOException(name + " has a page that does not decompress", e);
      }
    }
  }
}
