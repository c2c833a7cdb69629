#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

pub mod bundle;
pub mod host;
pub mod input;
pub mod manifest;
pub mod plan;
pub mod pointer;
pub mod request;
pub mod selection;
pub mod walk;
