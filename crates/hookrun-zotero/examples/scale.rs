//! Measures opening and reading a generated library:
//! `cargo run --release --features test-support --example scale -- 10000`
//! (regular items, each with a stored PDF attachment, all in one collection);
//! with a directory after the count, only builds the library there and keeps it
//! (`… --example scale -- 10000 /tmp/library`), e.g. to time `hookrun plan
//! --zotero /tmp/library --select collection:Everything`.

use std::time::Instant;

use hookrun_zotero::testdb::{Layout, TestDb};
use hookrun_zotero::{LibraryChoice, SelectSpec};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let n: usize = std::env::args()
        .nth(1)
        .map(|a| a.parse())
        .transpose()?
        .unwrap_or(10_000);
    if let Some(out) = std::env::args().nth(2) {
        std::fs::create_dir_all(&out)?;
        build(std::path::Path::new(&out), n)?;
        return Ok(());
    }
    let dir = tempfile::tempdir()?;
    let started = Instant::now();
    build(dir.path(), n)?;
    let size = std::fs::metadata(dir.path().join(hookrun_zotero::DATABASE_FILE))?.len();
    println!(
        "built {n} items + {n} attachments: {:.2?}, {:.1} MB",
        started.elapsed(),
        size as f64 / 1e6
    );
    let t = Instant::now();
    let library = hookrun_zotero::open(dir.path(), LibraryChoice::User)?;
    println!("open: {:.2?}", t.elapsed());
    let t = Instant::now();
    let count = library.item_count()?;
    println!("item_count ({count}): {:.2?}", t.elapsed());
    let t = Instant::now();
    let keys = library.item_keys()?;
    println!("item_keys ({}): {:.2?}", keys.len(), t.elapsed());
    let t = Instant::now();
    let page = library.item_keys_after(Some(&keys[keys.len() / 2]), 100)?;
    println!(
        "item_keys_after, 100 from the middle ({}): {:.2?}",
        page.len(),
        t.elapsed()
    );
    let t = Instant::now();
    let one = library.item("ITEM0000")?;
    println!(
        "item, the first: {:.2?} ({} members)",
        t.elapsed(),
        one.json.len()
    );
    let t = Instant::now();
    let mut bytes = 0;
    for key in &keys {
        bytes += serde_json::to_string(&library.item_json(key)?)?.len();
    }
    println!(
        "item_json of every item: {:.2?} ({:.1} MB of JSON)",
        t.elapsed(),
        bytes as f64 / 1e6
    );
    let t = Instant::now();
    let selection = library.select(&["collection:Everything".parse::<SelectSpec>()?])?;
    println!(
        "select a {}-item collection: {:.2?}",
        selection.items.len(),
        t.elapsed()
    );
    let t = Instant::now();
    let context = library.selection_context(&selection, "2026-01-01T00:00:00.000Z")?;
    println!(
        "its canonical context ({} facts): {:.2?}",
        context.counts().total,
        t.elapsed()
    );
    let t = Instant::now();
    library.quick_check()?;
    println!("quick_check: {:.2?}", t.elapsed());
    Ok(())
}

fn build(dir: &std::path::Path, n: usize) -> rusqlite::Result<()> {
    let mut db = TestDb::create(dir, Layout::default())?;
    db.connection().execute_batch("BEGIN")?;
    db.collection("COLLEVRY", "Everything").insert()?;
    for i in 0..n {
        let key = format!("ITEM{i:04}");
        db.item(&key, "journalArticle")
            .field(
                "title",
                &format!("Paper number {i} about cats and their habits"),
            )
            .field("abstractNote", &"An abstract of some length. ".repeat(20))
            .field("date", "2020-05-01 May 1, 2020")
            .field("DOI", &format!("10.1/{i}"))
            .creator("author", "Ada", &format!("Lovelace{}", i % 500))
            .creator("author", "Grace", "Hopper")
            .tag(&format!("topic{}", i % 50), 0)
            .in_collection("COLLEVRY")
            .insert()?;
        db.item(&format!("ATTA{i:04}"), "attachment")
            .parent(&key)
            .field("title", "Full Text PDF")
            .attachment(0, Some("application/pdf"), Some("storage:paper.pdf"))
            .insert()?;
    }
    db.connection().execute_batch("COMMIT")
}
