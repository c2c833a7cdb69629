//! The live descriptions ([`Call::live`](crate::Call::live)) a runtime's
//! prelude holds. A run's calls of one hook describe the same live objects
//! call after call, so a description crosses into a runtime once and is made
//! ready there once (the animator's `prepare`); later calls name it by the
//! number it is held under.

use serde_json::Value;

use crate::shared::same;

/// How many descriptions a runtime holds; a new one beyond them takes the
/// place of the one held longest.
const SLOTS: usize = 8;

/// How a call hands its description to the prelude.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Handed {
    /// The runtime holds it under this number.
    Held(usize),
    /// It crosses, to be held under this number from this call on.
    New(usize),
}

/// The descriptions the runtime holds, by number, as the host last sent them.
#[derive(Debug, Default)]
pub(crate) struct LiveSpecs {
    /// `None`: a number the runtime may hold something else under (a
    /// description sent by a call that did not answer).
    held: Vec<Option<Value>>,
    /// The slot a new description takes once every slot is used.
    next: usize,
    /// The description the current call sends, held once it answers.
    pending: Option<(usize, Value)>,
}

impl LiveSpecs {
    /// How the current call hands `live` over. A new description is held
    /// from [`answered`](Self::answered) on; until then its number names
    /// nothing, since the prelude may or may not have taken it.
    pub(crate) fn hand(&mut self, live: &Value) -> Handed {
        self.pending = None;
        if let Some(i) = self
            .held
            .iter()
            .position(|held| held.as_ref().is_some_and(|held| same(held, live)))
        {
            return Handed::Held(i);
        }
        let slot = match self.held.iter().position(Option::is_none) {
            Some(free) => free,
            None if self.held.len() < SLOTS => {
                self.held.push(None);
                self.held.len() - 1
            }
            None => {
                let slot = self.next;
                self.next = (slot + 1) % SLOTS;
                self.held[slot] = None;
                slot
            }
        };
        self.pending = Some((slot, live.clone()));
        Handed::New(slot)
    }

    /// The current call answered: the prelude took what it sent.
    pub(crate) fn answered(&mut self) {
        if let Some((slot, live)) = self.pending.take() {
            self.held[slot] = Some(live);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_description_crosses_once_and_is_named_after() {
        let mut specs = LiveSpecs::default();
        let live = json!([{"path": ["runtime"], "kind": "runtime"}]);
        assert_eq!(specs.hand(&live), Handed::New(0));
        specs.answered();
        assert_eq!(specs.hand(&live), Handed::Held(0));
        assert_eq!(specs.hand(&json!([])), Handed::New(1));
        specs.answered();
        assert_eq!(specs.hand(&live.clone()), Handed::Held(0));
    }

    #[test]
    fn a_description_sent_by_a_call_that_did_not_answer_crosses_again() {
        let mut specs = LiveSpecs::default();
        let live = json!([1]);
        assert_eq!(specs.hand(&live), Handed::New(0));
        assert_eq!(specs.hand(&live), Handed::New(0));
        specs.answered();
        assert_eq!(specs.hand(&live), Handed::Held(0));
    }

    #[test]
    fn a_slot_that_was_replaced_without_an_answer_names_nothing() {
        let mut specs = LiveSpecs::default();
        for i in 0..SLOTS {
            assert_eq!(specs.hand(&json!(i)), Handed::New(i));
            specs.answered();
        }
        // The ninth takes slot 0; its call fails, so slot 0 holds neither.
        assert_eq!(specs.hand(&json!("ninth")), Handed::New(0));
        assert_eq!(specs.hand(&json!(0)), Handed::New(0));
        specs.answered();
        assert_eq!(specs.hand(&json!(0)), Handed::Held(0));
        assert_eq!(specs.hand(&json!(1)), Handed::Held(1));
    }
}
