//! The ops behind the web-platform globals of `js/web.js`: URL parsing and its
//! setters (the `url` crate, which implements the WHATWG URL standard), the
//! `application/x-www-form-urlencoded` parser and serialiser of `URLSearchParams`
//! (`form_urlencoded`), and UTF-8 encoding and decoding (`encoding_rs`). Each is pure:
//! no clock, no file, no network.

use deno_core::{OpState, op2};
use deno_error::JsErrorBox;
use serde_json::json;
use url::{Url, quirks};

use super::ops::out_of_time;

/// A URL's origin as the URL standard serialises it. For `blob:` URLs the standard
/// now takes the inner URL's origin only when that URL is `http` or `https`.
fn origin(url: &Url) -> String {
    if url.scheme() == "blob" {
        return match Url::parse(url.path()) {
            Ok(inner) if matches!(inner.scheme(), "http" | "https") => quirks::origin(&inner),
            _ => "null".into(),
        };
    }
    quirks::origin(url)
}

/// A URL's parts in the order `js/web.js` reads them, as JSON.
fn parts(url: &Url) -> String {
    json!([
        quirks::href(url),
        origin(url),
        quirks::protocol(url),
        quirks::username(url),
        quirks::password(url),
        quirks::host(url),
        quirks::hostname(url),
        quirks::port(url),
        quirks::pathname(url),
        quirks::search(url),
        quirks::hash(url),
    ])
    .to_string()
}

/// Parses `input` against `base` (when `has_base`): the parts as JSON, or `null`.
#[op2]
#[string]
pub fn op_hookrun_url_parse(
    #[string] input: String,
    #[string] base: String,
    has_base: bool,
) -> String {
    let base = if has_base {
        match Url::parse(&base) {
            Ok(base) => Some(base),
            Err(_) => return "null".into(),
        }
    } else {
        None
    };
    match Url::options().base_url(base.as_ref()).parse(&input) {
        Ok(url) => parts(&url),
        Err(_) => "null".into(),
    }
}

/// Applies the setter of `part` to the URL `href`: the new parts as JSON, or `null`
/// when `href` is not a URL or (for `href` itself) the new value is not one. Setters
/// that refuse a value leave the URL as it was, as the standard says.
#[op2]
#[string]
pub fn op_hookrun_url_set(
    #[string] href: String,
    #[string] part: String,
    #[string] value: String,
) -> String {
    let Ok(mut url) = Url::parse(&href) else {
        return "null".into();
    };
    let refused = match part.as_str() {
        "href" => quirks::set_href(&mut url, &value).is_err(),
        "protocol" => quirks::set_protocol(&mut url, &value).is_err(),
        "username" => quirks::set_username(&mut url, &value).is_err(),
        "password" => quirks::set_password(&mut url, &value).is_err(),
        "host" => quirks::set_host(&mut url, &value).is_err(),
        "hostname" => quirks::set_hostname(&mut url, &value).is_err(),
        "port" => quirks::set_port(&mut url, &value).is_err(),
        "pathname" => {
            quirks::set_pathname(&mut url, &value);
            false
        }
        "search" => {
            quirks::set_search(&mut url, &value);
            false
        }
        "hash" => {
            quirks::set_hash(&mut url, &value);
            false
        }
        _ => false,
    };
    if refused && part == "href" {
        return "null".into();
    }
    parts(&url)
}

/// The name-value pairs of a query string, as a JSON array of pairs.
#[op2]
#[string]
pub fn op_hookrun_form_parse(#[string] query: String) -> String {
    let pairs: Vec<(String, String)> = form_urlencoded::parse(query.as_bytes())
        .into_owned()
        .collect();
    json!(pairs).to_string()
}

/// The query string of a JSON array of name-value pairs.
#[op2]
#[string]
pub fn op_hookrun_form_serialize(#[string] pairs: String) -> String {
    let pairs: Vec<(String, String)> = serde_json::from_str(&pairs).unwrap_or_default();
    form_urlencoded::Serializer::new(String::new())
        .extend_pairs(pairs)
        .finish()
}

/// `text` as UTF-8 (lone surrogates became U+FFFD on the way in, as for a
/// `USVString`).
#[op2]
#[buffer]
pub fn op_hookrun_utf8_encode(#[string] text: String) -> Vec<u8> {
    text.into_bytes()
}

/// The WHATWG name (lower case) of the encoding `label` names, as `TextDecoder`
/// reports it; `""` for a label the Encoding Standard does not know or that names
/// the `replacement` encoding.
#[op2]
#[string]
pub fn op_hookrun_encoding_name(#[string] label: String) -> String {
    encoding_name(&label)
}

fn encoding_name(label: &str) -> String {
    match encoding_rs::Encoding::for_label(label.trim().as_bytes()) {
        Some(e) if e != encoding_rs::REPLACEMENT => e.name().to_ascii_lowercase(),
        _ => String::new(),
    }
}

/// How many bytes a decoder takes at a time before it looks at the clock: about
/// 25 ms of the slowest input (malformed bytes, each a U+FFFD).
const DECODE_PIECE: usize = 1 << 20;

/// Decodes `bytes` in the encoding named `name` (an [`op_hookrun_encoding_name`]
/// answer): malformed sequences become U+FFFD, or, when `fatal`, fail; the
/// encoding's byte order mark is dropped when `strip_bom`. Decoded a piece at a
/// time: past the call's deadline it stops and the call ends with `timeout`.
#[op2]
#[string]
pub fn op_hookrun_text_decode(
    state: &mut OpState,
    #[buffer] bytes: &[u8],
    #[string] name: String,
    fatal: bool,
    strip_bom: bool,
) -> Result<String, JsErrorBox> {
    text_decode(bytes, &name, fatal, strip_bom, &mut || !out_of_time(state))
}

/// [`op_hookrun_text_decode`]'s work, asking `in_time` after each piece; an
/// empty text once it answers `false`.
fn text_decode(
    bytes: &[u8],
    name: &str,
    fatal: bool,
    strip_bom: bool,
    in_time: &mut dyn FnMut() -> bool,
) -> Result<String, JsErrorBox> {
    let encoding = encoding_rs::Encoding::for_label(name.as_bytes()).unwrap_or(encoding_rs::UTF_8);
    let bom = match encoding.name() {
        "UTF-8" => &b"\xEF\xBB\xBF"[..],
        "UTF-16LE" => &b"\xFF\xFE"[..],
        "UTF-16BE" => &b"\xFE\xFF"[..],
        _ => &b""[..],
    };
    let bytes = if strip_bom && !bom.is_empty() {
        bytes.strip_prefix(bom).unwrap_or(bytes)
    } else {
        bytes
    };
    let mut decoder = encoding.new_decoder_without_bom_handling();
    let mut text = String::new();
    let mut at = 0;
    loop {
        let end = bytes.len().min(at + DECODE_PIECE);
        let (piece, last) = (&bytes[at..end], end == bytes.len());
        let room = decoder
            .max_utf8_buffer_length(piece.len())
            .ok_or_else(|| JsErrorBox::range_error("the input is too long to decode"))?;
        text.reserve(room);
        if fatal {
            let (result, _) = decoder.decode_to_string_without_replacement(piece, &mut text, last);
            if let encoding_rs::DecoderResult::Malformed(..) = result {
                return Err(JsErrorBox::type_error(format!(
                    "the input is not valid {}",
                    encoding.name()
                )));
            }
        } else {
            // `room` holds the piece whole: the decoder never stops short.
            let _ = decoder.decode_to_string(piece, &mut text, last);
        }
        if last {
            return Ok(text);
        }
        if !in_time() {
            return Ok(String::new());
        }
        at = end;
    }
}

/// How many bytes at the end of `bytes` begin a UTF-8 sequence that the next chunk of
/// a stream may complete (0 to 3).
#[op2(fast)]
pub fn op_hookrun_utf8_tail(#[buffer] bytes: &[u8]) -> u32 {
    incomplete_tail(bytes) as u32
}

fn incomplete_tail(bytes: &[u8]) -> usize {
    let from = bytes.len().saturating_sub(3);
    (from..bytes.len())
        .rev()
        .find(|&i| bytes[i] & 0xC0 != 0x80)
        .filter(|&i| {
            std::str::from_utf8(&bytes[i..])
                .is_err_and(|e| e.valid_up_to() == 0 && e.error_len().is_none())
        })
        .map_or(0, |i| bytes.len() - i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_name_the_encoding_standard_encodings() {
        assert_eq!(encoding_name("latin1"), "windows-1252");
        assert_eq!(encoding_name(" UTF8 "), "utf-8");
        assert_eq!(encoding_name("sjis"), "shift_jis");
        assert_eq!(encoding_name("iso-2022-kr"), "");
        assert_eq!(encoding_name("nope"), "");
        let text = text_decode(b"caf\xE9", "windows-1252", false, true, &mut || true);
        assert_eq!(text.unwrap(), "café");
        let text = text_decode(b"\xFF\xFEh\0i\0", "utf-16le", true, true, &mut || true);
        assert_eq!(text.unwrap(), "hi");
    }

    /// Decoding in pieces gives what decoding at once gives, whatever a piece
    /// boundary splits (a UTF-8 sequence, a UTF-16 surrogate pair, a malformed
    /// sequence), and stops once the clock says so.
    #[test]
    fn texts_decoded_in_pieces_are_decoded_as_a_whole() {
        let whole = |bytes: &[u8], name: &str, fatal: bool| {
            let encoding = encoding_rs::Encoding::for_label(name.as_bytes()).unwrap();
            if fatal {
                encoding
                    .decode_without_bom_handling_and_without_replacement(bytes)
                    .map(|t| t.into_owned())
            } else {
                Some(encoding.decode_without_bom_handling(bytes).0.into_owned())
            }
        };
        let split = |tail: &[u8]| {
            let mut bytes = vec![b'a'; DECODE_PIECE - 1];
            bytes.extend_from_slice(tail);
            bytes
        };
        for (bytes, name) in [
            (split("€uro".as_bytes()), "utf-8"),
            (split(b"\xE2\x82"), "utf-8"),
            (split(b"\xE2\x82x"), "utf-8"),
            (split(&[0x3D, 0xD8, 0x00, 0xDE, 0x41, 0x00]), "utf-16le"),
            (split(&[0x81, 0x40, 0x41]), "gbk"),
            (vec![0xC3; 3 * DECODE_PIECE + 5], "utf-8"),
            (Vec::new(), "utf-8"),
        ] {
            for fatal in [false, true] {
                let pieces = text_decode(&bytes, name, fatal, false, &mut || true);
                assert_eq!(pieces.ok(), whole(&bytes, name, fatal), "{name} {fatal}");
            }
        }
        let mut asked = 0;
        let stopped = text_decode(
            &vec![b'a'; 3 * DECODE_PIECE],
            "utf-8",
            false,
            false,
            &mut || {
                asked += 1;
                false
            },
        );
        assert_eq!((stopped.unwrap(), asked), (String::new(), 1));
    }

    #[test]
    fn an_incomplete_sequence_at_the_end_is_kept_for_the_next_chunk() {
        assert_eq!(incomplete_tail(b"abc"), 0);
        assert_eq!(incomplete_tail(b"ab\xE2\x82"), 2);
        assert_eq!(incomplete_tail(b"\xF0\x9F\x98"), 3);
        assert_eq!(incomplete_tail(b"\xE2\x82\xAC"), 0, "complete");
        assert_eq!(
            incomplete_tail(b"a\xE0\x80"),
            0,
            "never valid: decoded as replacement"
        );
        assert_eq!(incomplete_tail(b"\xEF"), 1);
        assert_eq!(incomplete_tail(b""), 0);
        assert_eq!(
            incomplete_tail(b"\xEF\xBB\xBFh\xC3"),
            1,
            "the last lead byte counts"
        );
    }
}
