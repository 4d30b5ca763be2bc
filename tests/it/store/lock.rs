//! The store lock: taking it twice on one thread is an error, it serialises writers
//! across threads, concurrent board allocations are unique, and one transaction lists
//! the boards folder only for its first allocation.

use std::thread;

use yinsh_pbem::server::store::write_atomic;

use super::*;

#[test]
fn locking_twice_on_one_thread_is_an_error_not_a_deadlock() {
    let (_dir, store) = store();
    let lock = store.lock().expect("lock");
    assert!(store.is_locked_here());
    let clone = store.clone();
    let err = clone.lock().expect_err("second lock");
    assert!(matches!(err, StoreError::AlreadyLocked { .. }), "{err}");
    drop(lock);
    assert!(!store.is_locked_here());
    drop(store.lock().expect("lock again"));
}

#[test]
fn the_lock_serialises_four_threads_of_200_increments() {
    let (_dir, store) = store();
    let home = store.home().to_path_buf();
    let counter = home.join("counter");
    write_atomic(&counter, b"0\n").expect("init");
    let threads: Vec<_> = (0..4)
        .map(|_| {
            let home = home.clone();
            let counter = counter.clone();
            thread::spawn(move || {
                // Each thread has its own Store and so its own lock file handle.
                let store = Store::open(&home).expect("open");
                for _ in 0..200 {
                    let _lock = store.lock().expect("lock");
                    let text = fs::read_to_string(&counter).expect("read");
                    let n: u32 = text.trim().parse().expect("number");
                    thread::yield_now();
                    write_atomic(&counter, format!("{}\n", n + 1).as_bytes()).expect("write");
                }
            })
        })
        .collect();
    for t in threads {
        t.join().expect("thread");
    }
    assert_eq!(fs::read_to_string(&counter).expect("read"), "800\n");
}

#[test]
fn concurrent_allocations_are_unique() {
    let (_dir, store) = store();
    let home = store.home().to_path_buf();
    let threads: Vec<_> = (0..4)
        .map(|_| {
            let home = home.clone();
            thread::spawn(move || {
                let store = Store::open(&home).expect("open");
                (0..25)
                    .map(|_| store.allocate_board().expect("alloc").get())
                    .collect::<Vec<u32>>()
            })
        })
        .collect();
    let mut all: Vec<u32> = threads
        .into_iter()
        .flat_map(|t| t.join().expect("thread"))
        .collect();
    all.sort_unstable();
    assert_eq!(all, (101..201).collect::<Vec<u32>>());
}

/// Issue 13 §2: a mail with many challenges listed the boards folder once per board
/// (1,000 boards: 9.3 s). Within one transaction only the first allocation lists it
/// (a stray file put there afterwards is not seen); the next ones read the counter
/// and check only that the chosen number has no file.
#[test]
fn one_transaction_lists_the_boards_folder_for_its_first_allocation_only() {
    let (_dir, store) = store();
    let _lock = store.lock().expect("lock");
    store.begin();
    assert_eq!(store.allocate_board().expect("first"), 101);
    fs::write(store.boards_dir().join("stray.json"), "{}").expect("stray");
    assert_eq!(store.allocate_board().expect("second, no listing"), 102);
    // A game file at the chosen number is still never handed out.
    store.put_game(&sample_game(103)).expect("put");
    assert!(
        store.allocate_board().is_err(),
        "listed again: the stray file"
    );
    fs::remove_file(store.boards_dir().join("stray.json")).expect("rm");
    assert_eq!(store.allocate_board().expect("past 103"), 104);
    drop(store.take_changes());
    // A new transaction lists again (another process may have written boards).
    store.begin();
    fs::write(store.counter_path(), "101\n").expect("roll back");
    store.put_game(&sample_game(150)).expect("put");
    assert_eq!(store.allocate_board().expect("after a rollback"), 151);
    drop(store.take_changes());
}
