//! Places in the document a [`RefEncoder`] writes, and their JSON Pointers.

use super::{INDEX_STEP, Place, RefEncoder, Step, push_token};

impl RefEncoder {
    /// The place of the value just closed: the piece's own, or one step from
    /// the value still open around it.
    pub(super) fn place_of_closed(&mut self, at: &[&str]) -> u32 {
        match self.scan.open.len() {
            0 => self.piece_place(at),
            depth => {
                let parent = self.place_of_open(at, depth - 1);
                let step = self.step(depth - 1);
                self.new_place(parent, step)
            }
        }
    }

    /// The place of the open value at `depth` (0: the piece's outermost).
    fn place_of_open(&mut self, at: &[&str], depth: usize) -> u32 {
        if let Some(place) = self.scan.open[depth].place {
            return place;
        }
        let place = match depth {
            0 => self.piece_place(at),
            _ => {
                let parent = self.place_of_open(at, depth - 1);
                let step = self.step(depth - 1);
                self.new_place(parent, step)
            }
        };
        self.scan.open[depth].place = Some(place);
        place
    }

    /// The step from the open value at `depth` to its current member or element.
    fn step(&mut self, depth: usize) -> Step {
        let open = &self.scan.open[depth];
        if !open.object {
            return Step::Index(open.before);
        }
        let raw = &self.scan.open_names[open.name_from..open.name_from + open.name_len];
        let name: String = match std::str::from_utf8(raw) {
            Ok(plain) if !plain.contains('\\') => plain.to_string(),
            _ => {
                let mut quoted = Vec::with_capacity(raw.len() + 2);
                quoted.push(b'"');
                quoted.extend_from_slice(raw);
                quoted.push(b'"');
                serde_json::from_slice(&quoted).unwrap_or_default()
            }
        };
        Step::Member(self.name_id(name))
    }

    fn name_id(&mut self, name: String) -> u32 {
        if let Some(&id) = self.name_ids.get(name.as_str()) {
            return id;
        }
        let id = self.names.len() as u32;
        let name: Box<str> = name.into();
        self.names.push(name.clone());
        self.name_ids.insert(name, id);
        id
    }

    fn piece_place(&mut self, at: &[&str]) -> u32 {
        if let Some(place) = self.scan.place {
            return place;
        }
        let mut place = 0;
        for token in at {
            let step = match token.parse::<u32>() {
                Ok(index) if index < INDEX_STEP => Step::Index(index),
                _ => Step::Member(self.name_id(token.to_string())),
            };
            place = self.new_place(place, step);
        }
        self.scan.place = Some(place);
        place
    }

    fn new_place(&mut self, parent: u32, step: Step) -> u32 {
        let step = match step {
            Step::Index(index) => index | INDEX_STEP,
            Step::Member(id) => id,
        };
        self.places.push(Place { parent, step });
        (self.places.len() - 1) as u32
    }

    /// The JSON Pointer of `place`.
    pub(super) fn pointer(&self, mut place: u32) -> String {
        let mut steps = Vec::new();
        while place != 0 {
            let Place { parent, step } = self.places[place as usize];
            steps.push(step);
            place = parent;
        }
        let mut pointer = String::new();
        for step in steps.iter().rev() {
            pointer.push('/');
            match *step {
                index if index & INDEX_STEP != 0 => {
                    pointer.push_str(&(index & !INDEX_STEP).to_string())
                }
                id => push_token(&mut pointer, &self.names[id as usize]),
            }
        }
        pointer
    }
}
