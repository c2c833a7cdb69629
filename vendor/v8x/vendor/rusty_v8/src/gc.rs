pub use crate::binding::v8__GCCallbackFlags as GCCallbackFlags;
pub use crate::binding::v8__GCType as GCType;
