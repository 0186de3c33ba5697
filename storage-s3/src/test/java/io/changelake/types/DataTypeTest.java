package io.changelake.types;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.schema.SchemaManager;
import org.apache.paimon.types.DataTypeJsonParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DataTypeTest {

  @Test
  void printsEveryTypeAsPaimon() {
    for (DataType type : PaimonTypes.EVERY_TYPE) {
      assertEquals(PaimonTypes.toPaimon(type).asSQLString(), type.toString());
    }
  }

  @Test
  void parsesEveryTypeStringPaimonPrints() {
    for (DataType type : PaimonTypes.EVERY_TYPE) {
      assertEquals(type, DataType.parse(PaimonTypes.toPaimon(type).asSQLString()));
      assertEquals(
          PaimonTypes.toPaimon(type), DataTypeJsonParser.parseAtomicTypeSQLString(type.toString()));
    }
  }

  /** The schema file Paimon writes for a table with a column of every type. */
  @Test
  void readsTheTypesOfASchemaFilePaimonWrote(@TempDir Path table) throws Exception {
    Schema.Builder schema = Schema.newBuilder();
    for (int i = 0; i < PaimonTypes.EVERY_TYPE.length; i++) {
      schema.column("c" + i, PaimonTypes.toPaimon(PaimonTypes.EVERY_TYPE[i]));
    }
    new SchemaManager(LocalFileIO.create(), new org.apache.paimon.fs.Path(table.toUri()))
        .createTable(schema.build());

    String schemaFile = Files.readString(table.resolve("schema/schema-0"));
    JsonNode fields = new ObjectMapper().readTree(schemaFile).get("fields");
    assertEquals(PaimonTypes.EVERY_TYPE.length, fields.size());
    for (int i = 0; i < fields.size(); i++) {
      String written = fields.get(i).get("type").asText();
      assertEquals(PaimonTypes.EVERY_TYPE[i], DataType.parse(written), written);
      assertEquals(written, PaimonTypes.EVERY_TYPE[i].toString());
    }
  }

  @Test
  void parsesTheAliasesPaimonParses() {
    String[] aliases = {
      "integer",
      "NUMERIC(5, 2)",
      "DEC",
      "DECIMAL(7)",
      "DOUBLE PRECISION",
      "TIMESTAMP_LTZ(3)",
      "TIMESTAMP_LTZ",
      "TIMESTAMP(3) WITHOUT TIME ZONE",
      "TIMESTAMP",
      "BIGINT NULL",
      "varchar(5) not null",
      "CHAR",
      "BINARY",
      "VARBINARY",
      "VARCHAR(2147483647)",
      "TIMESTAMP WITH LOCAL TIME ZONE NOT NULL"
    };
    for (String alias : aliases) {
      org.apache.paimon.types.DataType paimon = DataTypeJsonParser.parseAtomicTypeSQLString(alias);
      assertEquals(paimon, PaimonTypes.toPaimon(DataType.parse(alias)), alias);
    }
  }

  @Test
  void rejectsTypesChangelakeDoesNotSupport() {
    for (String text : new String[] {"TIME", "ARRAY<INT>", "VARIANT", "INT WITH LOCAL TIME ZONE"}) {
      assertThrows(IllegalArgumentException.class, () -> DataType.parse(text), text);
    }
  }
}
