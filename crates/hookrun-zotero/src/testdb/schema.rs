//! The tables of a test database, written for these tests from the public facts of
//! Zotero's data model: the table and column names Zotero's documentation and
//! exports show. Only what the reader needs is declared, plus the columns whose
//! absence would make a row unlike Zotero's: the tables as `userdata` 120 (Zotero
//! 6) has them, then the columns later versions add ([`LATER_COLUMNS`]).

/// The tables holding the library.
pub(super) const LIBRARY_TABLES: &str = "
CREATE TABLE version (schema TEXT PRIMARY KEY, version INT NOT NULL);
CREATE TABLE settings (setting TEXT, key TEXT, value, PRIMARY KEY (setting, key));
CREATE TABLE libraries (
    libraryID INTEGER PRIMARY KEY, type TEXT NOT NULL, editable INT NOT NULL,
    filesEditable INT NOT NULL, version INT NOT NULL DEFAULT 0,
    storageVersion INT NOT NULL DEFAULT 0, lastSync INT NOT NULL DEFAULT 0,
    archived INT NOT NULL DEFAULT 0);
CREATE TABLE groups (
    groupID INTEGER PRIMARY KEY, libraryID INT NOT NULL UNIQUE, name TEXT NOT NULL,
    description TEXT NOT NULL, version INT NOT NULL);
CREATE TABLE creatorTypes (creatorTypeID INTEGER PRIMARY KEY, creatorType TEXT);
CREATE TABLE charsets (charsetID INTEGER PRIMARY KEY, charset TEXT UNIQUE);
CREATE TABLE items (
    itemID INTEGER PRIMARY KEY, itemTypeID INT NOT NULL,
    dateAdded TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    dateModified TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    clientDateModified TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    libraryID INT NOT NULL, key TEXT NOT NULL, version INT NOT NULL DEFAULT 0,
    synced INT NOT NULL DEFAULT 0, UNIQUE (libraryID, key));
CREATE TABLE itemDataValues (valueID INTEGER PRIMARY KEY, value UNIQUE);
CREATE TABLE itemData (itemID INT, fieldID INT, valueID, PRIMARY KEY (itemID, fieldID));
CREATE TABLE itemNotes (itemID INTEGER PRIMARY KEY, parentItemID INT, note TEXT, title TEXT);
CREATE INDEX itemNotes_parentItemID ON itemNotes(parentItemID);
CREATE TABLE itemAttachments (
    itemID INTEGER PRIMARY KEY, parentItemID INT, linkMode INT, contentType TEXT,
    charsetID INT, path TEXT, syncState INT DEFAULT 0, storageModTime INT,
    storageHash TEXT, lastProcessedModificationTime INT);
CREATE INDEX itemAttachments_parentItemID ON itemAttachments(parentItemID);
CREATE TABLE itemAnnotations (
    itemID INTEGER PRIMARY KEY, parentItemID INT NOT NULL, type INTEGER NOT NULL,
    authorName TEXT, text TEXT, comment TEXT, color TEXT, pageLabel TEXT,
    sortIndex TEXT NOT NULL, position TEXT NOT NULL, isExternal INT NOT NULL);
CREATE INDEX itemAnnotations_parentItemID ON itemAnnotations(parentItemID);
CREATE TABLE tags (tagID INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE itemTags (itemID INT NOT NULL, tagID INT NOT NULL, type INT NOT NULL,
    PRIMARY KEY (itemID, tagID));
CREATE INDEX itemTags_tagID ON itemTags(tagID);
CREATE TABLE creators (creatorID INTEGER PRIMARY KEY, firstName TEXT, lastName TEXT,
    fieldMode INT, UNIQUE (lastName, firstName, fieldMode));
CREATE TABLE itemCreators (itemID INT NOT NULL, creatorID INT NOT NULL,
    creatorTypeID INT NOT NULL DEFAULT 1, orderIndex INT NOT NULL DEFAULT 0,
    PRIMARY KEY (itemID, creatorID, creatorTypeID, orderIndex), UNIQUE (itemID, orderIndex));
CREATE TABLE collections (
    collectionID INTEGER PRIMARY KEY, collectionName TEXT NOT NULL,
    parentCollectionID INT DEFAULT NULL,
    clientDateModified TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    libraryID INT NOT NULL, key TEXT NOT NULL, version INT NOT NULL DEFAULT 0,
    synced INT NOT NULL DEFAULT 0, UNIQUE (libraryID, key));
CREATE TABLE collectionItems (collectionID INT NOT NULL, itemID INT NOT NULL,
    orderIndex INT NOT NULL DEFAULT 0, PRIMARY KEY (collectionID, itemID));
CREATE INDEX collectionItems_itemID ON collectionItems(itemID);
CREATE TABLE relationPredicates (predicateID INTEGER PRIMARY KEY, predicate TEXT UNIQUE);
CREATE TABLE itemRelations (itemID INT NOT NULL, predicateID INT NOT NULL,
    object TEXT NOT NULL, PRIMARY KEY (itemID, predicateID, object));
CREATE TABLE deletedItems (itemID INTEGER PRIMARY KEY,
    dateDeleted DEFAULT CURRENT_TIMESTAMP NOT NULL);
CREATE TABLE deletedCollections (collectionID INTEGER PRIMARY KEY,
    dateDeleted DEFAULT CURRENT_TIMESTAMP NOT NULL);
CREATE TABLE publicationsItems (itemID INTEGER PRIMARY KEY);
CREATE TABLE groupItems (itemID INTEGER PRIMARY KEY, createdByUserID INT,
    lastModifiedByUserID INT);
CREATE TABLE feeds (libraryID INTEGER PRIMARY KEY, name TEXT NOT NULL, url TEXT NOT NULL UNIQUE,
    lastUpdate TIMESTAMP, lastCheck TIMESTAMP, lastCheckError TEXT, cleanupReadAfter INT,
    cleanupUnreadAfter INT, refreshInterval INT);
CREATE TABLE syncedSettings (setting TEXT NOT NULL, libraryID INT NOT NULL, value NOT NULL,
    version INT NOT NULL DEFAULT 0, synced INT NOT NULL DEFAULT 0,
    PRIMARY KEY (setting, libraryID));
";

/// Columns later `userdata` versions add, none of which the reader needs:
/// (first version, table, column). Zotero 9.0 (125) has the first three; the
/// `*Normalized` columns (accent-insensitive search) came with 126 and the
/// `clientVersion` columns with 129.
pub(super) const LATER_COLUMNS: &[(i64, &str, &str)] = &[
    (124, "itemAttachments", "lastRead INT"),
    (125, "libraries", "isAdmin INT NOT NULL DEFAULT 0"),
    (126, "itemDataValues", "valueNormalized TEXT"),
    (126, "itemAnnotations", "textNormalized TEXT"),
    (126, "itemAnnotations", "commentNormalized TEXT"),
    (126, "tags", "nameNormalized TEXT"),
    (126, "creators", "firstNameNormalized TEXT"),
    (126, "creators", "lastNameNormalized TEXT"),
    (129, "items", "clientVersion INT NOT NULL DEFAULT 0"),
    (129, "collections", "clientVersion INT NOT NULL DEFAULT 0"),
    (129, "libraries", "clientVersion INT NOT NULL DEFAULT 0"),
];

/// The tables naming item types and fields as a profile first made them.
pub(super) const TYPE_TABLES: &str = "
CREATE TABLE itemTypes (itemTypeID INTEGER PRIMARY KEY, typeName TEXT,
    templateItemTypeID INT, display INT DEFAULT 1);
CREATE TABLE fields (fieldID INTEGER PRIMARY KEY, fieldName TEXT, fieldFormatID INT);
CREATE TABLE itemTypeFields (itemTypeID INT, fieldID INT, hide INT, orderIndex INT,
    PRIMARY KEY (itemTypeID, orderIndex), UNIQUE (itemTypeID, fieldID));
CREATE TABLE baseFieldMappings (itemTypeID INT, baseFieldID INT, fieldID INT,
    PRIMARY KEY (itemTypeID, baseFieldID, fieldID));
CREATE TABLE itemTypeCreatorTypes (itemTypeID INT, creatorTypeID INT, primaryField INT,
    PRIMARY KEY (itemTypeID, creatorTypeID));
";

/// The combined tables (built-in and custom types and fields together) that
/// profiles of Zotero 6 and later read, filled as copies of the tables above.
pub(super) const COMBINED_TABLES: &str = "
CREATE TABLE itemTypesCombined (itemTypeID INT NOT NULL PRIMARY KEY, typeName TEXT NOT NULL,
    display INT NOT NULL DEFAULT 1, custom INT NOT NULL);
CREATE TABLE fieldsCombined (fieldID INT NOT NULL PRIMARY KEY, fieldName TEXT NOT NULL,
    label TEXT, fieldFormatID INT, custom INT NOT NULL);
CREATE TABLE itemTypeFieldsCombined (itemTypeID INT NOT NULL, fieldID INT NOT NULL,
    hide INT, orderIndex INT NOT NULL, PRIMARY KEY (itemTypeID, orderIndex),
    UNIQUE (itemTypeID, fieldID));
CREATE TABLE baseFieldMappingsCombined (itemTypeID INT, baseFieldID INT, fieldID INT,
    PRIMARY KEY (itemTypeID, baseFieldID, fieldID));
INSERT INTO itemTypesCombined SELECT itemTypeID, typeName, display, 0 FROM itemTypes;
INSERT INTO fieldsCombined SELECT fieldID, fieldName, NULL, fieldFormatID, 0 FROM fields;
INSERT INTO itemTypeFieldsCombined SELECT itemTypeID, fieldID, hide, orderIndex FROM itemTypeFields;
INSERT INTO baseFieldMappingsCombined SELECT itemTypeID, baseFieldID, fieldID FROM baseFieldMappings;
";
