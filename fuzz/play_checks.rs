//! The saved-game parser's promises, as a plain function: the `parse_save` fuzz target
//! calls it on generated inputs, and `crates/sudokit-play/tests/fuzz_corpus.rs` replays
//! the committed corpus through it in every `cargo test`.

use sudokit_play::Game;

/// Reads arbitrary text as a saved game: no panic; a refusal names a line of the text
/// (or the file as a whole) and says what is wrong; a game that loads saves to text
/// that loads again and saves the same (so saving never loses or invents anything).
pub fn parse_save(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    match Game::from_save(&text) {
        Err(e) => {
            assert!(
                e.line <= text.lines().count().max(1),
                "{e} (line out of range)"
            );
            assert!(!e.message.is_empty());
        }
        Ok(game) => {
            let saved = game.to_save();
            let again = Game::from_save(&saved)
                .unwrap_or_else(|e| panic!("a saved game does not load: {e}\n{saved}"));
            assert_eq!(again.to_save(), saved);
            assert_eq!(again.geometry().variant(), game.geometry().variant());
        }
    }
}
