//! The predicate table: every `name/arity` (with its strong-negation sign)
//! gets a dense [`PredId`].

use crate::syntax::ast::Signature;
use rustc_hash::FxHashMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PredId(pub u32);

impl PredId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

#[derive(Clone, Debug)]
pub struct PredInfo {
    pub name: String,
    pub arity: usize,
    pub negative: bool,
}

#[derive(Clone, Debug, Default)]
pub struct Predicates {
    infos: Vec<PredInfo>,
    ids: FxHashMap<(String, usize, bool), PredId>,
}

impl Predicates {
    pub fn intern(&mut self, name: &str, arity: usize, negative: bool) -> PredId {
        let key = (name.to_string(), arity, negative);
        if let Some(&id) = self.ids.get(&key) {
            return id;
        }
        let id = PredId(self.infos.len() as u32);
        self.infos.push(PredInfo {
            name: name.to_string(),
            arity,
            negative,
        });
        self.ids.insert(key, id);
        id
    }

    pub fn get(&self, id: PredId) -> &PredInfo {
        &self.infos[id.index()]
    }

    pub fn signature(&self, id: PredId) -> Signature {
        let info = self.get(id);
        Signature {
            strong_negation: info.negative,
            name: info.name.clone(),
            arity: info.arity,
        }
    }

    pub fn len(&self) -> usize {
        self.infos.len()
    }

    pub fn ids(&self) -> impl Iterator<Item = PredId> + use<> {
        (0..self.infos.len() as u32).map(PredId)
    }
}
