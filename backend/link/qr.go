package link

import "github.com/shortlink/shortlink/backend/qr"

// qrLook checks a QR style sent for a link as the image route checks its parameters (the same
// reasons, under "qr."), answering what the link keeps: nil for none or the default.
func qrLook(l *qr.Look) (*qr.Look, error) {
	if l == nil {
		return nil, nil
	}
	v := *l
	if err := v.Normalize("qr"); err != nil {
		return nil, err
	}
	if v.IsDefault() {
		return nil, nil
	}
	return &v, nil
}
