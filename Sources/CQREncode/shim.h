/* libqrencode (Debian libqrencode-dev): QR code symbols for the terminal activation screen. */
#include <qrencode.h>
