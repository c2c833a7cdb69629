//! The file of a payload carrier as the reference host stores it: a PNG image
//! whose private `zsPL` chunk, before `IEND`, holds the payload envelope as
//! UTF-8 JSON. The image itself is one transparent pixel.

use serde_json::Value;

use crate::host::js_value::js_json;

/// The PNG signature.
const SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a];

/// The private chunk type that holds the envelope.
pub(in crate::host::world) const CHUNK: &[u8; 4] = b"zsPL";

/// A chunk: its length, type, data and the CRC-32 of type and data.
fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    let length = u32::try_from(data.len()).unwrap_or(u32::MAX);
    out.extend_from_slice(&length.to_be_bytes());
    let mut crc = crc32fast::Hasher::new();
    crc.update(kind);
    crc.update(data);
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    out.extend_from_slice(&crc.finalize().to_be_bytes());
}

/// The image data of one transparent RGBA pixel: a zlib stream holding one
/// stored deflate block (a filter byte and four zero samples).
fn pixel() -> Vec<u8> {
    let raw = [0u8; 5];
    let (mut a, mut b) = (1u32, 0u32);
    for byte in raw {
        a = (a + u32::from(byte)) % 65_521;
        b = (b + a) % 65_521;
    }
    let mut data = vec![0x78, 0x01, 0x01, 0x05, 0x00, 0xfa, 0xff];
    data.extend_from_slice(&raw);
    data.extend_from_slice(&((b << 16) | a).to_be_bytes());
    data
}

/// The bytes of the carrier file holding `envelope`.
pub(in crate::host::world) fn carrier_png(envelope: &Value) -> Vec<u8> {
    let mut out = SIGNATURE.to_vec();
    // 1×1, 8 bits per sample, RGBA, deflate, adaptive filtering, no interlace.
    let header = [0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0];
    chunk(&mut out, b"IHDR", &header);
    chunk(&mut out, b"IDAT", &pixel());
    chunk(&mut out, CHUNK, js_json(envelope).as_bytes());
    chunk(&mut out, b"IEND", &[]);
    out
}
