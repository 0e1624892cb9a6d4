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

// setUTMAndQR gives a new link the UTM parameters and the QR style in asks for, once checked.
func setUTMAndQR(l *Link, in *Input) error {
	if in.UTM != nil {
		in.UTM.Trim()
		if err := in.UTM.Validate("utm"); err != nil {
			return err
		}
		l.UTM = *in.UTM
	}
	var err error
	l.QR, err = qrLook(in.QR)
	return err
}
