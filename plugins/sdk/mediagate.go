package sdk

import (
	"fmt"
	"strings"
)

// Messages of the uploaded-video gate (VideoNotReady), the same for every
// content type with a video field.
const (
	MsgVideoChoose  = "Escolha o vídeo enviado."
	MsgVideoSending = "O envio do vídeo não terminou."
)

// MsgVideoProcessing is the refusal while the uploaded video is being
// transcoded, with its progress.
func MsgVideoProcessing(percent int) string {
	return fmt.Sprintf("O vídeo ainda está sendo processado (%d %%). Envie para revisão quando estiver pronto.", percent)
}

// MsgVideoFailed is the refusal when processing the uploaded video failed.
func MsgVideoFailed(reason string) string {
	if reason = strings.TrimSpace(reason); reason == "" {
		return "O processamento do vídeo falhou. Tente novamente na biblioteca de mídia."
	}
	return fmt.Sprintf("O processamento do vídeo falhou: %s. Tente novamente na biblioteca de mídia.", strings.TrimRight(reason, ". "))
}

// VideoNotReady is why the item's uploaded video in field cannot go to
// review or be published yet, "" once its asset is ready to play. The core
// sends each video field's asset in it.Media; none there means no asset is
// chosen or it no longer exists, and an asset that is not a video (an image
// picked by mistake) or in a state unknown to this SDK cannot be played.
func VideoNotReady(it ContentItem, field string) string {
	a, ok := it.Media[field]
	if v, _ := it.Fields[field].(string); !ok || strings.TrimSpace(v) == "" || (a.Kind != "" && a.Kind != "video") {
		return MsgVideoChoose
	}
	switch a.State {
	case MediaReady:
		return ""
	case MediaProcessing:
		return MsgVideoProcessing(a.ProgressPercent)
	case MediaFailed:
		return MsgVideoFailed(a.Error)
	case MediaUploading:
		return MsgVideoSending
	}
	return MsgVideoChoose
}
