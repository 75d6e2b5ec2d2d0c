//! Gubin (placeholder).
use super::{Fields, Run};
use crate::grid::Grid;
pub(crate) const FIELDS: Fields = Fields::ALL;
pub(crate) fn search(_grid: &Grid, _run: &mut Run) {}
