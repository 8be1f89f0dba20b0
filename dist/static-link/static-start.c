/*
 * What glibc's crt1.o supplies to a static program that is not position-independent, for navsessionctl only
 * (scripts/install links it against the C library's archives, with nothing loaded at start-up).
 *
 * SwiftPM's link starts every program from Scrt1.o, the start file of a dynamically linked program; a static
 * link with gcc or clang -static would start from crt1.o instead, which also defines the function below as
 * empty. The C library's start-up (__libc_start_main) calls it first; its own definition, kept in libc.a for
 * static-pie programs, relocates the program by its _DYNAMIC section, which a program linked at a fixed address
 * has neither of nor needs. This archive is named before the C library, so the linker takes this definition.
 */
void _dl_relocate_static_pie(void) {
}
