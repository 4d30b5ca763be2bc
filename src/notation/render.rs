//! The ASCII board in the pbmserv layout (pbmserv-reference.md §6) and its status block.
